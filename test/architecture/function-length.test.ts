/**
 * No function in the folders of src/ listed in ROOTS runs past 80 lines: every function
 * declaration, method, arrow function and function expression is measured from its first to its
 * last line with the TypeScript parser. A failure names each long function with its file, line
 * and length.
 */
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const MAX_LINES = 80;
/** The folders checked, with how many functions each has at least (a check that measures nothing fails). */
const ROOTS: [string, number][] = [['optimizer', 100], ['cli', 100], ['queue', 50], ['campaign', 40], ['evaluation', 300], ['models', 100], ['domains', 1000], ['viewer', 300]];
const SRC = path.resolve(__dirname, '../../src');

interface Measured {
  file: string;
  name: string;
  line: number;
  lines: number;
}

function files(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : []));
}

/** A function-like node's name for the report: its own, or the variable or property it is assigned to. */
function nameOf(node: ts.Node): string {
  const named = node as ts.Node & { name?: ts.Node };
  if (named.name && ts.isIdentifier(named.name)) return named.name.text;
  const p = node.parent;
  if (p && (ts.isVariableDeclaration(p) || ts.isPropertyAssignment(p) || ts.isPropertyDeclaration(p)) && ts.isIdentifier(p.name)) return p.name.text;
  return '(anonymous)';
}

/** Every function-like node of a source text with its line span. */
export function measureFunctions(file: string, text: string): Measured[] {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const out: Measured[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && (node as ts.FunctionLikeDeclaration).body) {
      const start = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line;
      const end = sf.getLineAndCharacterOfPosition(node.getEnd()).line;
      out.push({ file, name: nameOf(node), line: start + 1, lines: end - start + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

describe('function length in src/ folders', () => {
  it.each(ROOTS)(`src/%s has no function over ${MAX_LINES} lines`, (folder, atLeast) => {
    const root = path.join(SRC, folder);
    const all = files(root).flatMap((f) => measureFunctions(path.relative(SRC, f), fs.readFileSync(f, 'utf8')));
    expect(all.length).toBeGreaterThan(atLeast);
    const long = all.filter((m) => m.lines > MAX_LINES).map((m) => `${m.file}:${m.line} ${m.name} (${m.lines} lines)`);
    expect(long, `functions over ${MAX_LINES} lines:\n${long.join('\n')}`).toEqual([]);
  });

  it('measures a function from its first to its last line', () => {
    const text = ['const f = (a: number) => {', '  return a;', '};', 'function g() {', '  const h = function () {', '    return 1;', '  };', '  return h;', '}'].join('\n');
    expect(measureFunctions('x.ts', text).map((m) => [m.name, m.line, m.lines])).toEqual([
      ['f', 1, 3],
      ['g', 4, 6],
      ['h', 5, 3],
    ]);
  });
});
