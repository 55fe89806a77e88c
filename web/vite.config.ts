import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

// The dashboard's front end (rvport serve), built into dist/web by `npm run build`. No inline
// script or style ends up in index.html: the server's Content-Security-Policy forbids them.
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: './',
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: fileURLToPath(new URL('../dist/web', import.meta.url)),
    emptyOutDir: true,
    // no inlined assets (data: URLs): the policy allows files of the server alone
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    sourcemap: false,
  },
  logLevel: 'warn',
});
