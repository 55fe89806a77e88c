import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dhSequenceOptions } from '../../src/debian/dhSequenceOptions.ts';
import { debianRulesTestCommand } from '../../src/heuristics/debianRulesBuild.ts';
import type { ChrootSandbox } from '../../src/sandbox/chroot/ChrootSandbox.ts';
import { createSandbox } from '../../src/sandbox/createSandbox.ts';
import { PROVISION_TIMEOUT_MS, provisionedImages } from './provisionedImages.ts';

// A packaging whose build lives where only dh's options say (--sourcedirectory=src), whose rules
// export a variable the tests read, and which runs a hook before the tests: the test step must
// find all three, as dh's own sequence would.
const RULES = [
  '#!/usr/bin/make -f',
  'export RVPORT_FROM_RULES := exported',
  '%:',
  '\tdh $@ --sourcedirectory=src --buildsystem=makefile',
  'execute_before_dh_auto_test:',
  '\techo hook > before.txt',
  '',
].join('\n');
const CONTROL = [
  'Source: demo',
  'Build-Depends: debhelper-compat (= 13)',
  '',
  'Package: demo',
  'Architecture: any',
  'Description: demo',
  ' demo',
  '',
].join('\n');
const CHANGELOG = `demo (1.0-1) unstable; urgency=medium

  * Test.

 -- Nobody <nobody@example.org>  Wed, 02 Dec 2026 12:00:00 +0000
`;
const MAKEFILE = ['all:', '', 'check:', '\techo "$$RVPORT_FROM_RULES" > ../checked.txt', ''].join('\n');

let box: ChrootSandbox;

beforeAll(async () => {
  await provisionedImages();
  box = await createSandbox({ mode: 'accelerated' });
  const installed = await box.installPackages(['debhelper'], { timeoutMs: 30 * 60_000 });
  if (installed.exitCode !== 0) throw new Error(`debhelper: ${installed.stderr.slice(-1000)}`);
  await box.writeFile('/build/demo/debian/rules', RULES, 0o755);
  await box.writeFile('/build/demo/debian/control', CONTROL);
  await box.writeFile('/build/demo/debian/changelog', CHANGELOG);
  await box.writeFile('/build/demo/src/Makefile', MAKEFILE);
}, PROVISION_TIMEOUT_MS);

afterAll(async () => {
  await box?.destroy();
});

describe("the test step of Debian's own build", () => {
  it(
    "runs dh_auto_test with dh's options, the rules' exports and their hook",
    async () => {
      const command = debianRulesTestCommand(dhSequenceOptions(RULES));
      const result = await box.run(['sh', '-c', command], { cwd: '/build/demo', timeoutMs: 600_000 });
      expect(result.exitCode, `${result.stdout}\n${result.stderr}`).toBe(0);
      const files = await box.run(['sh', '-c', 'cat before.txt checked.txt'], { cwd: '/build/demo' });
      expect(files.stdout).toBe('hook\nexported\n');
    },
    15 * 60_000,
  );

  it(
    'fails when the tests fail',
    async () => {
      await box.writeFile('/build/demo/src/Makefile', 'all:\n\ncheck:\n\texit 3\n');
      const command = debianRulesTestCommand(dhSequenceOptions(RULES));
      const result = await box.run(['sh', '-c', command], { cwd: '/build/demo', timeoutMs: 600_000 });
      expect(result.exitCode).toBe(1);
      expect(result.stderr).toMatch(/Error 3|exit 3|returned exit code/);
    },
    15 * 60_000,
  );
});
