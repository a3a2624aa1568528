/**
 * A surface the domain does not support is refused before anything runs or is stored: exit 2,
 * naming the domain, the surface asked for and the surfaces the domain supports (from the surface
 * registry: a surface whose tools cannot front the domain). `run`, `validate`, `terminal` and an
 * optimise config's `suite.surface` alike.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { tmpDir } from '../support/paths.js';
import { loadDomainAsync } from '../../src/domains/catalog.js';
import { surfacesSupporting } from '../../src/surfaces/catalog.js';
import { buildSuite } from '../../src/optimizer/setup.js';
import { parseOptimizeConfig } from '../../src/optimizer/config.js';

const AIRLINE_TERMINAL = '--surface terminal: the airline domain does not support the terminal surface: it offers no command interpreter; surfaces it supports: api';

describe('a surface the domain does not support', () => {
  it('validate exits 2 before running or storing anything', async () => {
    const db = path.join(tmpDir(), 'store.db');
    const r = await runCli(['validate', '--domain', 'airline', '--surface', 'terminal', '--db', db, '-q']);
    expect(r.code).toBe(2);
    expect(r.err).toBe(`servicegym: error: ${AIRLINE_TERMINAL}\n`);
    expect(r.out).toBe('');
    expect(fs.existsSync(db)).toBe(false);
  });

  it('run exits 2 before any model call or store write', async () => {
    const db = path.join(tmpDir(), 'store.db');
    const r = await runCli(['run', '--domain', 'airline', '--surface', 'terminal', '--agent-model', 'a', '--user-model', 'u', '--base-url', 'http://127.0.0.1:9/v1', '--db', db, '-q']);
    expect(r.code).toBe(2);
    expect(r.err).toBe(`servicegym: error: ${AIRLINE_TERMINAL}\n`);
    expect(fs.existsSync(db)).toBe(false);
  });

  it('lists every surface the domain supports (gds: api and terminal; console: the browser surfaces)', async () => {
    const r = await runCli(['validate', '--domain', 'gds', '--surface', 'pixels', '--no-store', '-q']);
    expect(r.code).toBe(2);
    expect(r.err).toContain('the gds domain does not support the pixels surface: it has no GUI app; surfaces it supports: api, terminal\n');
    expect(await surfacesSupporting((await loadDomainAsync('console')).domain)).toEqual(['api', 'web', 'web-screenshot']);
    expect(await surfacesSupporting((await loadDomainAsync('banking')).domain)).toEqual(['api', 'pixels']);
  });

  it('a config file\'s "surface" is blamed at its JSON path', async () => {
    const dir = tmpDir();
    const cfg = path.join(dir, 'validate.json');
    fs.writeFileSync(cfg, JSON.stringify({ domain: 'airline', surface: 'terminal', 'no-store': true }));
    const r = await runCli(['validate', '--config', cfg, '-q']);
    expect(r.code).toBe(2);
    expect(r.err).toBe(`servicegym: error: ${cfg} at $.surface: ${AIRLINE_TERMINAL}\n`);
  });

  it('terminal names the surfaces the domain supports', async () => {
    const r = await runCli(['terminal', 'airline']);
    expect(r.code).toBe(2);
    expect(r.err).toBe('servicegym: error: the airline domain does not support the terminal surface: it offers no command interpreter; surfaces it supports: api\n');
  });

  it('an optimise config\'s suite.surface is refused at $.suite.surface', async () => {
    const cfg = { file: '/tmp/x/optimize.json', dir: '/tmp/x', identity: 'i', config: parseOptimizeConfig({ name: 'g', suite: { kind: 'tasks', domain: 'airline', tasks: ['T01'], surface: 'web' }, models: { agent: { model: 'a' }, user: { model: 'u' } } }) };
    await expect(buildSuite(cfg as never)).rejects.toThrow(expect.objectContaining({ path: '$.suite.surface', message: expect.stringContaining('the airline domain does not support the web surface: it has no web app; surfaces it supports: api') }));
  });
});
