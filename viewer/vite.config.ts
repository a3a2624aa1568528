/**
 * Builds the viewer UI into dist/viewer/ui (npm run build). The bundle is one classic
 * (non-module) script plus one stylesheet with fixed names and relative URLs, because Chromium
 * refuses module scripts and `crossorigin` requests from file:// pages, and the static export
 * (`servicegym view --export`) must open from the file system.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';

const here = path.dirname(fileURLToPath(import.meta.url));

/**
 * Rewrites Vite's `<script type="module" crossorigin>` into a deferred classic script, preceded
 * by `data.js` (the static export's data; an empty stub from the live server).
 */
function classicScript(): Plugin {
  return {
    name: 'servicegym-classic-script',
    enforce: 'post',
    transformIndexHtml: {
      order: 'post',
      handler: (html) =>
        html
          .replace(/<script type="module" crossorigin src="([^"]+)"><\/script>/g, '<script src="./data.js"></script>\n    <script defer src="$1"></script>')
          .replace(/ crossorigin(="[^"]*")?/g, ''),
    },
  };
}

export default defineConfig({
  root: here,
  base: './',
  logLevel: 'warn',
  plugins: [react(), classicScript()],
  build: {
    outDir: path.resolve(here, '..', 'dist', 'viewer', 'ui'),
    emptyOutDir: true,
    modulePreload: false,
    cssCodeSplit: false,
    assetsInlineLimit: 0,
    rolldownOptions: {
      output: {
        format: 'iife',
        entryFileNames: 'assets/viewer.js',
        assetFileNames: 'assets/viewer[extname]',
      },
    },
  },
});
