/**
 * `npm run build` prints no warning of its own making: the CLI bundle (`scripts/bundle-cli.mjs`)
 * gives Vite a root above its output folder, since Vite warns ("build.outDir must not be the
 * same directory of root or a parent directory of root") when the output folder is the root.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { ROOT, tmpDir } from '../support/paths.js';

const dir = tmpDir('sg-build-warnings-');
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('build warnings', () => {
  it('bundling the CLI warns of nothing (no build.outDir warning)', async () => {
    fs.mkdirSync(path.join(dir, 'dist', 'cli'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'dist', 'cli', 'bin.js'), "#!/usr/bin/env node\nconsole.log('ok');\n");
    const warned: string[] = [];
    const warn = vi.spyOn(console, 'warn').mockImplementation((...args: unknown[]) => void warned.push(args.map(String).join(' ')));
    try {
      const script = pathToFileURL(path.join(ROOT, 'scripts', 'bundle-cli.mjs')).href;
      const { bundleCli } = (await import(/* @vite-ignore */ script)) as { bundleCli: (o: { dist: string; entry: string; more: string[]; stamp: boolean }) => Promise<void> };
      await bundleCli({ dist: path.join(dir, 'dist'), entry: 'cli/bin.js', more: [], stamp: false });
    } finally {
      warn.mockRestore();
    }
    expect(fs.readFileSync(path.join(dir, 'dist', 'cli', 'bin.js'), 'utf8')).toMatch(/console\.log\(['"]ok['"]\)/);
    expect(warned).toEqual([]);
  }, 120_000);
});
