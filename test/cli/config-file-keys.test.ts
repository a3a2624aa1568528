/**
 * A config file's unknown keys are shown as JSON spells them: one line per problem, whatever
 * characters a key holds (a line break or a control character would otherwise split or hide it).
 */
import fs from 'node:fs';
import path from 'node:path';
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { applyConfigFile } from '../../src/cli/config-file.js';
import { tmpDir } from '../support/paths.js';

describe('config file keys', () => {
  it('an unknown key with a line break or a control character stays on its line, escaped', () => {
    const cfg = path.join(tmpDir('sg-config-keys-'), 'c.json');
    fs.writeFileSync(cfg, JSON.stringify({ 'a\nb': 1, '\u0000': 2, ok: true }));
    const cmd = new Command('x').option('--config <file>').option('--ok');
    let message = '';
    try {
      applyConfigFile(cmd, { config: cfg });
    } catch (e) {
      message = (e as Error).message;
    }
    const lines = message.split('\n');
    expect(lines[0]).toContain('2 problems in the config file');
    expect(lines).toHaveLength(3);
    expect(lines[1]).toContain(`$.a\\nb: unknown key 'a\\nb'; expected one of: ok`);
    expect(lines[2]).toContain(`$.\\u0000: unknown key '\\u0000'`);
  });
});
