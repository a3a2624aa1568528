/**
 * No import cycles in src/: the imports of every src/**\/*.ts file (static, type-only, re-exports
 * and dynamic `import()`), parsed with the TypeScript compiler's pre-processor, form an acyclic
 * graph of files, and the folders directly under src/ (the layers) form an acyclic graph too, so
 * dependencies point down the layers. A failure names the cycle and, for layers, one import per
 * edge of it.
 */
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const SRC = path.resolve(__dirname, '../../src');

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(p);
    return e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') ? [p] : [];
  });
}

/** Relative imports of one file, resolved to .ts files under src (paths relative to src). */
function importsOf(file: string): string[] {
  const info = ts.preProcessFile(fs.readFileSync(file, 'utf8'), true, true);
  const out: string[] = [];
  for (const ref of info.importedFiles) {
    if (!ref.fileName.startsWith('.')) continue;
    const abs = path.resolve(path.dirname(file), ref.fileName);
    const candidates = [abs.replace(/\.js$/, '.ts'), `${abs}.ts`, path.join(abs, 'index.ts')];
    const hit = candidates.find((c) => fs.existsSync(c) && fs.statSync(c).isFile());
    if (hit) out.push(path.relative(SRC, hit));
  }
  return out;
}

/** The import graph of src/: file → files it imports. */
export function importGraph(): Map<string, string[]> {
  return new Map(sourceFiles(SRC).map((f) => [path.relative(SRC, f), importsOf(f)]));
}

/** Every cycle-carrying strongly connected component (Tarjan), each as one concrete cycle path. */
export function findCycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const c: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        c.push(w);
      } while (w !== v);
      if (c.length > 1 || (graph.get(v) ?? []).includes(v)) components.push(c);
    }
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) visit(v);
  return components.map((c) => cyclePath(graph, new Set(c)));
}

/** One cycle through a strongly connected component: a → b → … → a (breadth-first back to the start). */
function cyclePath(graph: ReadonlyMap<string, readonly string[]>, members: ReadonlySet<string>): string[] {
  const start = [...members].sort()[0];
  const prev = new Map<string, string>();
  const queue = [start];
  while (queue.length) {
    const v = queue.shift()!;
    for (const w of graph.get(v) ?? []) {
      if (!members.has(w)) continue;
      if (w === start) {
        const pathBack = [v];
        while (pathBack[0] !== start) pathBack.unshift(prev.get(pathBack[0])!);
        return [...pathBack, start];
      }
      if (!prev.has(w)) {
        prev.set(w, v);
        queue.push(w);
      }
    }
  }
  return [start, start];
}

/** The layer of a src-relative file: its first folder (files directly in src/ are their own layer). */
const layerOf = (file: string): string => file.split(path.sep)[0];

describe('import graph of src/', () => {
  const graph = importGraph();

  it('parses every source file and finds their relative imports', () => {
    expect(graph.size).toBeGreaterThan(100);
    expect(graph.get(path.join('cli', 'main.ts'))!.length).toBeGreaterThan(3);
  });

  it('has no cycle between files', () => {
    const cycles = findCycles(graph).map((c) => c.join(' -> '));
    expect(cycles, `import cycles:\n${cycles.join('\n')}`).toEqual([]);
  });

  it('has no cycle between layers (folders under src/)', () => {
    const layers = new Map<string, string[]>();
    const witness = new Map<string, string>();
    for (const [file, deps] of graph) {
      const a = layerOf(file);
      if (!layers.has(a)) layers.set(a, []);
      for (const dep of deps) {
        const b = layerOf(dep);
        if (a === b) continue;
        if (!layers.get(a)!.includes(b)) layers.get(a)!.push(b);
        if (!witness.has(`${a}>${b}`)) witness.set(`${a}>${b}`, `${file} imports ${dep}`);
      }
    }
    const cycles = findCycles(layers).map((c) => `${c.join(' -> ')} (${c.slice(1).map((b, i) => witness.get(`${c[i]}>${b}`)).join('; ')})`);
    expect(cycles, `layer cycles:\n${cycles.join('\n')}`).toEqual([]);
  });

  it('finds and names a planted cycle', () => {
    const planted = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts', 'd.ts']],
      ['d.ts', []],
      ['e.ts', ['e.ts']],
    ]);
    expect(findCycles(planted)).toEqual([
      ['a.ts', 'b.ts', 'c.ts', 'a.ts'],
      ['e.ts', 'e.ts'],
    ]);
  });
});
