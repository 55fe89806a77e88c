#!/usr/bin/env node
// Runs the compiled JavaScript in dist/ when it is there and up to date: an installed package, or a
// checkout after `npm run build`. Node then starts in a fraction of the time tsx needs to transpile
// the TypeScript sources at every start. A development checkout without a build, or whose sources
// changed since the last one, runs the sources through tsx, so an edit never runs stale code.
import { existsSync, readdirSync, statSync } from 'node:fs';

const root = new URL('../', import.meta.url);
const built = new URL('dist/.built', root);
const sources = new URL('src/', root);

if (useBuild()) {
  const { main } = await import('../dist/cli/main.js');
  process.exitCode = await main(process.argv);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  const { main } = await import('../src/cli/main.ts');
  process.exitCode = await main(process.argv);
}

// dist/.built appears when a build is complete and keeps the time the build started, so a source
// saved while tsc was running counts as newer than the build.
function useBuild() {
  if (!existsSync(sources)) return true; // an installed package ships dist/ only
  if (!existsSync(built)) return false;
  return newestSource(sources.pathname) <= statSync(built).mtimeMs;
}

/** The newest modification time of the files the build is made of (tests excluded). */
function newestSource(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(path));
    else if (!entry.name.endsWith('.test.ts')) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}
