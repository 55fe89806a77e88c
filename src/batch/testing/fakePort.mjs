// Stands in for `rvport port SOURCE --json --out OUT …` in tests of the port runners. What it
// does depends on the SOURCE's last path segment: ok, escalate, refuse, crash, slow (waits for
// SIGINT, then exits 130) or stubborn (runs until killed). It writes its pid to
// OUT/NAME/fake.pid and its argv to OUT/NAME/argv.json.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const [source, ...rest] = process.argv.slice(2);
const out = rest[rest.indexOf('--out') + 1];
const name = source.split(/[/:]/).pop();
if (name === 'slow') {
  // installed before the pid file is written: a test that saw the file may interrupt at once
  process.on('SIGINT', () => {
    process.stderr.write('interrupted\n');
    process.exit(130);
  });
}
mkdirSync(join(out, name), { recursive: true });
writeFileSync(join(out, name, 'fake.pid'), String(process.pid));
writeFileSync(join(out, name, 'argv.json'), JSON.stringify(process.argv.slice(2)));
const result = (verdict, exitCode, extra = {}) => {
  process.stdout.write(
    `${JSON.stringify({ result: verdict, exitCode, cacheHit: false, message: `${verdict} ${name}`, buildSystem: 'make', attempts: 1, errorCategory: null, tests: null, llm: { calls: 0, costUsd: 0 }, ...extra })}\n`,
  );
  process.exitCode = exitCode;
};
process.stderr.write(`» init ${name}\n`);
switch (name) {
  case 'ok':
    result('verified', 0);
    break;
  case 'escalate':
    result('escalated', 1, { errorCategory: 'ARCHITECTURE_IMPOSSIBLE' });
    break;
  case 'refuse':
    process.stderr.write('rvport: SOURCE contains shell metacharacters\n');
    process.exitCode = 1;
    break;
  case 'crash':
    process.stderr.write('boom\n');
    process.kill(process.pid, 'SIGSEGV');
    break;
  case 'slow':
  case 'stubborn':
    setInterval(() => {}, 1000);
    break;
}
