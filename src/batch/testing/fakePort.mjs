// Stands in for `rvport port SOURCE --json --out OUT …` in tests of the port runners. What it
// does depends on the SOURCE's last path segment: ok, escalate, refuse, crash, slow (waits for
// SIGINT, then exits 130), gated (verified once the file $FAKE_GATE exists; 130 on SIGINT) or
// stubborn (runs until killed). It writes its pid to OUT/NAME/fake.pid and its argv to
// OUT/NAME/argv.json; a verified port also writes OUT/NAME/recipe.md and, with RVPORT_HOME set,
// a recipe-cache entry there.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const [source, ...rest] = process.argv.slice(2);
const out = rest[rest.indexOf('--out') + 1];
const name = source.split(/[/:]/).pop();
if (name === 'slow' || name === 'gated') {
  // installed before the pid file is written: a test that saw the file may interrupt at once
  process.on('SIGINT', () => {
    process.stderr.write('interrupted\n');
    process.exit(130);
  });
}
mkdirSync(join(out, name), { recursive: true });
writeFileSync(join(out, name, 'fake.pid'), String(process.pid));
writeFileSync(join(out, name, 'argv.json'), JSON.stringify(process.argv.slice(2)));
const recipe = () => {
  writeFileSync(join(out, name, 'recipe.md'), `# ${name} for riscv64\n`);
  if (!process.env.RVPORT_HOME) return;
  const dir = join(process.env.RVPORT_HOME, 'recipes', name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'fake-image.json'),
    JSON.stringify({
      formatVersion: 1,
      package: name,
      imageId: 'fake-image',
      source: { spec: source },
      buildSystem: 'make',
      plan: { dir: '.', packages: [], phases: [{ name: 'build', commands: ['make'] }] },
      dependencies: [],
      patches: [],
      artifacts: [],
      verification: { verdict: 'verified', reason: 'fake' },
      durations: { total: 1 },
      recipe: `# ${name} for riscv64\n`,
      createdAt: '2026-11-30T00:00:00.000Z',
      rvportVersion: '0.1.0',
    }),
  );
};
const result = (verdict, exitCode, extra = {}) => {
  if (verdict === 'verified') recipe();
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
    writeFileSync(join(out, name, 'escalation.md'), `# ${name}: no riscv64 backend\n`);
    result('escalated', 1, { errorCategory: 'ARCHITECTURE_IMPOSSIBLE' });
    break;
  case 'gated': {
    const wait = setInterval(() => {
      if (!existsSync(process.env.FAKE_GATE)) return;
      clearInterval(wait);
      result('verified', 0);
    }, 50);
    break;
  }
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
