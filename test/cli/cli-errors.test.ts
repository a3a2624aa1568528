/**
 * The CLI in process: bad input exits 2 naming the file and the JSON path (or line), the offline
 * replay of the embedded seed experiment prints its table and decision, help and unknown commands.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli/main.js';
import { HAS_SHARED, SEED_CAMPAIGN, SEED_RECORD, tmpDir } from '../support/paths.js';
import { runCli } from '../support/cli.js';

/** Runs `servicegym …args` in process, capturing stdout and stderr. */
const cli = runCli;

afterEach(() => {
  vi.restoreAllMocks();
});

/** A copy of the seed campaign in a temp folder. */
function campaignCopy(): string {
  const dir = path.join(tmpDir('sg-cli-'), 'campaign');
  fs.cpSync(SEED_CAMPAIGN, dir, { recursive: true });
  return dir;
}

const replayFlags = () => ['--no-store', '-q', '--work-dir', tmpDir('sg-work-')];

describe('import-record on bad records', () => {
  /** An experiment record: the seed record when ../shared is there, else the seed replay's own record. */
  let recordText: string;
  let dir: string;
  beforeAll(async () => {
    dir = tmpDir('sg-rec-');
    if (HAS_SHARED) {
      recordText = fs.readFileSync(SEED_RECORD, 'utf8');
    } else {
      const r = await cli(['replay', '--json', ...replayFlags()]);
      expect(r.code).toBe(0);
      recordText = r.stdout;
    }
  });

  const write = (name: string, text: string) => {
    const f = path.join(dir, name);
    fs.writeFileSync(f, text);
    return f;
  };

  it('imports the intact record (exit 0), so the failures below are the injected faults', async () => {
    const file = write('intact.json', recordText);
    const out = path.join(dir, 'imported');
    const r = await cli(['import-record', file, '--out', out]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`imported 10 cases and 73 receipts into ${out}`);
  });

  it('refuses a non-empty folder that holds no earlier import (--force overrides); re-importing over an import is fine', async () => {
    const file = write('intact2.json', recordText);
    const out = path.join(dir, 'busy');
    fs.mkdirSync(out);
    fs.writeFileSync(path.join(out, 'notes.txt'), 'mine');
    const refused = await cli(['import-record', file, '--out', out]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`${out}: the output folder is not empty (notes.txt) and does not hold an earlier import (SOURCE.md)`);
    expect(refused.stderr).toContain('--force');
    expect(fs.readdirSync(out)).toEqual(['notes.txt']);
    const forced = await cli(['import-record', file, '--out', out, '--force']);
    expect(forced.code).toBe(0);
    expect(fs.readFileSync(path.join(out, 'notes.txt'), 'utf8')).toBe('mine');
    const again = await cli(['import-record', file, '--out', out]);
    expect(again.code).toBe(0);
    expect(fs.existsSync(path.join(out, 'campaign.json'))).toBe(true);
  });

  it("someone else's SOURCE.md is not an earlier import; re-importing over an import replaces its prompts/", async () => {
    const file = write('intact3.json', recordText);
    const theirs = path.join(dir, 'theirs');
    fs.mkdirSync(theirs);
    fs.writeFileSync(path.join(theirs, 'SOURCE.md'), '# my notes\n');
    const refused = await cli(['import-record', file, '--out', theirs]);
    expect(refused.code).toBe(2);
    expect(fs.readFileSync(path.join(theirs, 'SOURCE.md'), 'utf8')).toBe('# my notes\n');
    const mine = path.join(dir, 'mine');
    expect((await cli(['import-record', file, '--out', mine])).code).toBe(0);
    fs.writeFileSync(path.join(mine, 'prompts', 'stale.txt'), 'from another record');
    expect((await cli(['import-record', file, '--out', mine])).code).toBe(0);
    expect(fs.existsSync(path.join(mine, 'prompts', 'stale.txt'))).toBe(false);
    expect(fs.existsSync(path.join(mine, 'prompts', 'stable.txt'))).toBe(true);
    const empty = await cli(['import-record', file, '--out', '']);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain('the output folder is an empty path');
  });

  it('a record cut in the middle of a string: exit 2, the file, the JSON path, "truncated"', async () => {
    const file = write('cut-mid.json', recordText.slice(0, Math.floor(recordText.length / 2)));
    const r = await cli(['import-record', file, '--out', path.join(dir, 'x')]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(file);
    expect(r.stderr).toMatch(new RegExp(`${escape(file)} at \\$\\.\\S+: invalid JSON \\(\\w+\\) at line \\d+, column \\d+ \\(the file looks truncated\\)`));
    expect(fs.existsSync(path.join(dir, 'x'))).toBe(false);
  });

  it('a record cut after a comma: the exact line and JSON path where parsing stopped', async () => {
    // Cut just after `"model": "…",` of the first api_turns request.
    const turns = recordText.indexOf('"api_turns"');
    const at = recordText.indexOf('"model"', turns);
    const cut = recordText.indexOf(',', at) + 1;
    const text = recordText.slice(0, cut);
    const file = write('cut-comma.json', text);
    const r = await cli(['import-record', file, '--out', path.join(dir, 'y')]);
    expect(r.code).toBe(2);
    const line = text.split('\n').length;
    expect(r.stderr).toContain(`${file} at $.api_turns[0].request: invalid JSON (`);
    expect(r.stderr).toContain(`at line ${line}, column `);
    expect(r.stderr).toContain('(the file looks truncated)');
  });

  it('a well-formed record with a wrong type: exit 2 naming the file and $.evaluations.initial.results[0].correct', async () => {
    const rec = JSON.parse(recordText);
    rec.evaluations.initial.results[0].correct = 'yes';
    const file = write('bad-correct.json', JSON.stringify(rec, null, 2));
    const r = await cli(['import-record', file, '--out', path.join(dir, 'z')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`servicegym: error: ${file} at $.evaluations.initial.results[0].correct: Invalid input: expected boolean, received string\n`);
  });

  it('api_turns set to 5: exit 2 naming $.api_turns', async () => {
    const rec = JSON.parse(recordText);
    rec.api_turns = 5;
    const file = write('bad-turns.json', JSON.stringify(rec));
    const r = await cli(['import-record', file, '--out', path.join(dir, 'w')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`servicegym: error: ${file} at $.api_turns: Invalid input: expected array, received number\n`);
  });

  it('an api_turns entry with an unknown key (a headers block): exit 2 naming $.api_turns[2].headers, nothing written', async () => {
    const rec = JSON.parse(recordText);
    rec.api_turns[2].headers = { authorization: 'Bearer sk-not-a-real-key' };
    const file = write('bad-turn-key.json', JSON.stringify(rec));
    const out = path.join(dir, 'u');
    const r = await cli(['import-record', file, '--out', out]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`servicegym: error: ${file} at $.api_turns[2]: Unrecognized key: "headers"\n`);
    expect(fs.existsSync(out)).toBe(false);
  });

  it('a missing record file: exit 2 naming it', async () => {
    const file = path.join(dir, 'no-such-record.json');
    const r = await cli(['import-record', file, '--out', path.join(dir, 'v')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`servicegym: error: ${file}: file not found\n`);
  });
});

describe('replay on bad campaign folders', () => {
  it('campaign.json with agent.max_steps = -1: exit 2 naming campaign.json and $.agent.max_steps', async () => {
    const dir = campaignCopy();
    const specFile = path.join(dir, 'campaign.json');
    const spec = JSON.parse(fs.readFileSync(specFile, 'utf8'));
    spec.agent.max_steps = -1;
    fs.writeFileSync(specFile, JSON.stringify(spec, null, 2));
    const r = await cli(['replay', dir, ...replayFlags()]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(new RegExp(`^servicegym: error: ${escape(specFile)} at \\$\\.agent\\.max_steps: .+\\n$`));
  });

  it('a missing folder: exit 2 naming its campaign.json', async () => {
    const dir = path.join(tmpDir('sg-cli-'), 'does-not-exist');
    const r = await cli(['replay', dir, ...replayFlags()]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`servicegym: error: ${path.join(dir, 'campaign.json')}: file not found\n`);
  });

  it('receipts.jsonl with a broken line: exit 2 naming the file and the line', async () => {
    const dir = campaignCopy();
    const file = path.join(dir, 'receipts.jsonl');
    const lines = fs.readFileSync(file, 'utf8').split('\n');
    lines[4] = lines[4].slice(0, 100);
    fs.writeFileSync(file, lines.join('\n'));
    const r = await cli(['replay', dir, ...replayFlags()]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(new RegExp(`^servicegym: error: ${escape(path.resolve(file))} at \\$: line 5 is not valid JSON \\(.+\\)\\n$`));
  });

  it('receipts.jsonl with a line of the wrong shape: exit 2 naming the line and the JSON path in it', async () => {
    const dir = campaignCopy();
    const file = path.join(dir, 'receipts.jsonl');
    const lines = fs.readFileSync(file, 'utf8').split('\n');
    const bad = JSON.parse(lines[6]);
    bad.elapsed_seconds = 'slow';
    lines[6] = JSON.stringify(bad);
    fs.writeFileSync(file, lines.join('\n'));
    const r = await cli(['replay', dir, ...replayFlags()]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`servicegym: error: ${path.resolve(file)} at $.elapsed_seconds: line 7: Invalid input: expected number, received string\n`);
  });
});

describe('replay of the embedded seed experiment', () => {
  it('prints the table with the three rows and release_to_canary (exit 0)', async () => {
    const r = await cli(['replay', ...replayFlags()]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Campaign record-9-3: replay of 73 recorded calls \(55 task_agent, 17 llm_judge, 1 coding_agent\), model doubao-seed-1-6-flash-250615\n/);
    expect(r.stdout).toMatch(/\nlabel\s+holdout\s+boundary\n初始 prompt\(优化前\)\s+5\/5\s+0\/5\n自动优化后 prompt\s+5\/5\s+2\/5\n人工调优版\(对照\)\s+5\/5\s+4\/5\n/);
    expect(r.stdout).toContain('Decision: release_to_canary\n');
    expect(r.stdout).toContain('Boundary fixed: B1-不可退票要退款, B5-超额免费行李; regressions: 0\n');
  });

  it('--json prints the record as valid JSON with decision release_to_canary', async () => {
    const r = await cli(['replay', '--json', ...replayFlags()]);
    expect(r.code).toBe(0);
    const record = JSON.parse(r.stdout);
    expect(record.release_gate.decision).toBe('release_to_canary');
    expect(record.rows.map((x: any) => [x.holdout, x.boundary])).toEqual([
      [[5, 5], [0, 5]],
      [[5, 5], [2, 5]],
      [[5, 5], [4, 5]],
    ]);
    expect(record.api_turns).toHaveLength(73);
  });
});

describe('help and unknown commands', () => {
  it('--help exits 0 and lists the commands', async () => {
    const r = await cli(['--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Usage: servicegym');
    for (const c of ['replay', 'campaign', 'import-record']) expect(r.stdout).toContain(c);
  });

  it('an unknown command exits 2 and names it', async () => {
    const r = await cli(['frobnicate']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("unknown command 'frobnicate'");
  });
});

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
