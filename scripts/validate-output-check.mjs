#!/usr/bin/env node
// Checks that two builds of the CLI print the same `validate` output, byte for byte: for every
// case (tau2 airline, retail and telecom folders and servicegym's own datasets, with and without
// --strict, as text and as --json) it runs `node <root>/dist/cli/bin.js validate … --no-store -q`
// with each build and compares stdout, stderr and the exit code. The only part allowed to differ
// is the measured rate at the end of the text summary ("(354.8 tasks/s)"), which is masked.
//
//   node scripts/validate-output-check.mjs BEFORE_ROOT [AFTER_ROOT=this checkout] [--only airline,retail] [--quick]
//
// BEFORE_ROOT is a checkout (or a copy of one) with a built dist/, e.g. a worktree of main. The
// tau2 folders are read from ../shared/peers/tau2 beside AFTER_ROOT; cases whose folder is missing
// are skipped and listed. --quick leaves out tau2 telecom's 2,285 tasks (the slowest case).
// Exit 0 when every case matches, 1 when any differs (the first differing line of each is shown),
// 2 for bad arguments.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const args = process.argv.slice(2);
const flag = (name) => {
  const i = args.indexOf(name);
  if (i < 0) return undefined;
  const v = args[i + 1];
  args.splice(i, 2);
  return v;
};
const only = flag('--only')?.split(',');
const quick = args.includes('--quick');
const roots = args.filter((a) => !a.startsWith('--'));
if (roots.length < 1 || roots.length > 2) {
  process.stderr.write('usage: node scripts/validate-output-check.mjs BEFORE_ROOT [AFTER_ROOT] [--only airline,retail] [--quick]\n');
  process.exit(2);
}
const before = path.resolve(roots[0]);
const after = path.resolve(roots[1] ?? path.join(path.dirname(fileURLToPath(import.meta.url)), '..'));
for (const root of [before, after]) {
  if (!fs.existsSync(path.join(root, 'dist', 'cli', 'bin.js'))) {
    process.stderr.write(`${root}: no dist/cli/bin.js (run npm run build there)\n`);
    process.exit(2);
  }
}
const TAU2 = path.resolve(after, '..', 'shared', 'peers', 'tau2');

/** Every case: a name and the validate arguments (before --strict / --json are added). */
const CASES = [
  { name: 'tau2-airline', args: ['--domain', 'airline', '--data-dir', path.join(TAU2, 'airline')], dir: path.join(TAU2, 'airline') },
  { name: 'tau2-airline-1task', args: ['--domain', 'airline', '--data-dir', path.join(TAU2, 'airline'), '--tasks', '0'], dir: path.join(TAU2, 'airline') },
  { name: 'tau2-retail', args: ['--domain', 'retail', '--data-dir', path.join(TAU2, 'retail')], dir: path.join(TAU2, 'retail') },
  { name: 'tau2-telecom', args: ['--domain', 'telecom', '--data-dir', path.join(TAU2, 'telecom')], dir: path.join(TAU2, 'telecom'), slow: true },
  ...['airline', 'retail', 'banking', 'hotel', 'insurance', 'utility', 'gds', 'telecom', 'helpdesk', 'console'].map((d) => ({ name: d, args: ['--domain', d] })),
];

/** The measured rate is the one part of the output that may differ. */
const mask = (s) => s.replace(/\(\d+(\.\d+)? (tasks|episodes)\/s\)/g, '(RATE $2/s)');

function run(root, argv) {
  const r = spawnSync(process.execPath, [path.join(root, 'dist', 'cli', 'bin.js'), 'validate', ...argv, '--no-store', '-q'], { cwd: root, encoding: 'utf8', maxBuffer: 1 << 30 });
  return { code: r.status, stdout: mask(r.stdout), stderr: mask(r.stderr) };
}

function firstDiff(a, b) {
  const x = a.split('\n');
  const y = b.split('\n');
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    if (x[i] !== y[i]) return `line ${i + 1}:\n  before: ${JSON.stringify(x[i])}\n  after:  ${JSON.stringify(y[i])}`;
  }
  return 'same lines, different bytes';
}

let failed = 0;
let compared = 0;
const skipped = [];
for (const c of CASES) {
  if (only && !only.some((o) => c.name === o || c.name.startsWith(`${o}`))) continue;
  if (c.slow && quick) {
    skipped.push(`${c.name} (--quick)`);
    continue;
  }
  if (c.dir && !fs.existsSync(c.dir)) {
    skipped.push(`${c.name} (${c.dir} not found)`);
    continue;
  }
  for (const extra of [[], ['--strict'], ['--json'], ['--strict', '--json']]) {
    const label = [c.name, ...extra].join(' ');
    const a = run(before, [...c.args, ...extra]);
    const b = run(after, [...c.args, ...extra]);
    compared++;
    const diffs = ['code', 'stdout', 'stderr'].filter((k) => a[k] !== b[k]);
    if (diffs.length === 0) {
      process.stdout.write(`same   ${label} (exit ${a.code}, ${a.stdout.length} bytes)\n`);
      continue;
    }
    failed++;
    process.stdout.write(`DIFFER ${label}: ${diffs.join(', ')}\n`);
    for (const k of diffs) process.stdout.write(k === 'code' ? `  exit ${a.code} before, ${b.code} after\n` : `  ${k} ${firstDiff(a[k], b[k])}\n`);
  }
}
if (skipped.length) process.stdout.write(`skipped: ${skipped.join(', ')}\n`);
process.stdout.write(`${compared - failed}/${compared} cases print the same output\n`);
process.exit(failed ? 1 : 0);
