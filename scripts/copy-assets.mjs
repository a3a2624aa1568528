// Copies the non-TypeScript assets that live beside the code (policies, task files) from src/
// into dist/ after `tsc`, so the built CLI finds them where the sources do.
import fs from 'node:fs';
import path from 'node:path';

const exts = new Set(['.md', '.json']);
function walk(dir) {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) walk(p);
    else if (exts.has(path.extname(e.name))) {
      const out = path.join('dist', path.relative('src', p));
      fs.mkdirSync(path.dirname(out), { recursive: true });
      fs.copyFileSync(p, out);
    }
  }
}
walk('src');
