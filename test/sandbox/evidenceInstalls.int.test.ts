import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChrootSandbox } from '../../src/sandbox/chroot/ChrootSandbox.ts';
import { createSandbox } from '../../src/sandbox/createSandbox.ts';
import { EVIDENCE_LOG } from '../../src/sandbox/proof/evidenceLayer.ts';
import { readInvocationLog } from '../../src/sandbox/proof/readInvocationLog.ts';
import { PROVISION_TIMEOUT_MS, provisionedImages } from './provisionedImages.ts';

// Every call of a swapped program sampled: each one that reads a pipe goes through the
// recorder's stdin capture, so a package whose maintainer script runs ucf under debconf's
// frontend (which holds the pipe open) is the case that hung a port's install.
let box: ChrootSandbox;

beforeAll(async () => {
  await provisionedImages();
  box = await createSandbox({ mode: 'native-userland', evidence: { samplePerMille: 1000 } });
}, PROVISION_TIMEOUT_MS);

afterAll(async () => {
  await box?.destroy();
});

describe('packages installed under per-build evidence', () => {
  it(
    'gives a twin under qemu the environment in the x86_64 order (ucf walks ENVIRON in awk)',
    async () => {
      await box.run(['sh', '-c', `: > ${EVIDENCE_LOG}`], { timeoutMs: 60_000 });
      // forty variables: enough for mawk's walk of ENVIRON to follow the order they came in
      const exports = Array.from({ length: 40 }, (_, i) => `export VAR_${i}=x;`).join(' ');
      const result = await box.run(
        ['bash', '-c', `${exports} mawk 'BEGIN{for(v in ENVIRON) print v}' | wc -l; printenv | wc -l`],
        { timeoutMs: 5 * 60_000 },
      );
      expect(result.exitCode, result.stderr).toBe(0);
      const log = await box.run(['cat', EVIDENCE_LOG], { timeoutMs: 60_000 });
      const walks = readInvocationLog(log.stdout).invocations.filter((c) =>
        ['mawk', 'printenv'].includes(c.program),
      );
      expect(walks.map((c) => [c.program, c.outcome])).toEqual([
        ['mawk', 'same'],
        ['printenv', 'same'],
      ]);
    },
    10 * 60_000,
  );

  it(
    'installs libxml-sax-perl, whose postinst runs ucf through debconf',
    async () => {
      const result = await box.installPackages(['libxml-sax-perl'], { timeoutMs: 15 * 60_000 });
      expect(result.timedOut).toBe(false);
      expect(result.exitCode, result.stderr.slice(-2000)).toBe(0);
      const parsers = await box.run(['cat', '/etc/perl/XML/SAX/ParserDetails.ini'], { timeoutMs: 60_000 });
      expect(parsers.stdout).toContain('[XML::SAX::PurePerl]');
      // dpkg ran without a pty: no call of the install went unrecorded for a terminal (ucf's
      // `seq 6 -1 0` with its stderr on dpkg's pty refused a port's fast userland)
      const log = await box.run(['cat', EVIDENCE_LOG], { timeoutMs: 60_000 });
      const { invocations } = readInvocationLog(log.stdout);
      expect(invocations.length).toBeGreaterThan(0);
      expect(invocations.filter((c) => c.outcome === 'skip:tty')).toEqual([]);
      // ucf's `seq 6 -1 0` never reads the stdin debconf's frontend holds open: run twice all
      // the same (a capture of that stdin gave up and refused a port's fast userland)
      const seqs = invocations.filter((c) => c.program === 'seq');
      expect(seqs.length).toBeGreaterThan(0);
      expect(seqs.map((c) => c.outcome)).toEqual(seqs.map(() => 'same'));
    },
    20 * 60_000,
  );
});
