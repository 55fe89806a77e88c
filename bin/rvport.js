#!/usr/bin/env node
// rvport ships TypeScript sources and runs them through tsx, so users' workflow files (.ts) and
// rvport itself share one loader. The hook maps a bare `rvport` import to this installation.
import { register } from 'node:module';
import { register as registerTsx } from 'tsx/esm/api';

registerTsx();
register('../src/cli/resolveSelfHook.js', import.meta.url);
const { main } = await import('../src/cli/main.ts');
process.exitCode = await main(process.argv);
