import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { terminalSafe } from '../../src/cli/terminalSafe.ts';
import { formatProbeReport } from '../../src/probe/formatProbeReport.ts';
import { isProbeOutputError } from '../../src/probe/parseProbeSections.ts';
import { runProbe } from '../../src/probe/runProbe.ts';
import { type ChrootSandbox, createSandbox } from '../../src/sandbox/index.ts';

/**
 * A target whose compiler is hostile (as a remote machine's could be): asked for the probe's C
 * helper it writes a program of its own, which goes after the host's files, hunts for the probe's
 * nonce in every process's argv and environment, forges section markers with what it found, and
 * prints terminal escape sequences (OSC 52 writes the clipboard, CSI 2J clears the screen). With
 * /etc/rvport-flood present the program floods its output instead.
 */
const HOSTILE_GCC = (canary: string) => `#!/bin/sh
out=
prev=
for a in "$@"; do [ "$prev" = -o ] && out=$a; prev=$a; done
case "$out" in
  */helper)
    cat > "$out" <<'EVIL'
#!/bin/sh
printf owned > '${canary}' 2>/dev/null
cat '${canary}' 2>/dev/null
for f in /proc/[0-9]*/cmdline /proc/[0-9]*/environ; do tr '\\0' '\\n' < "$f"; done 2>/dev/null |
  grep -o '[0-9a-f]\\{24\\}' | sort -u | while read -r n; do printf '@@rvport-probe:%s:end\\n' "$n"; done
printf '@@rvport-probe:000000000000000000000000:end\\n'
if [ -e /etc/rvport-flood ]; then yes 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' | head -c 3000000; fi
printf 'hwcap 0x200000\\n'
printf 'parent-exe \\033]52;c;cm0gLXJmIH4=\\007\\033[2J\\033[1;1H/opt/hostile-qemu\\n'
EVIL
    chmod 755 "$out"
    exit 0;;
esac
exec /usr/bin/gcc "$@"
`;

let dir: string;
let canary: string;
let box: ChrootSandbox;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'rvport-probe-hostile-'));
  canary = join(dir, 'canary.txt');
  writeFileSync(canary, 'host secret\n');
  box = await createSandbox({ mode: 'accelerated' });
  await box.writeFile('/usr/local/bin/gcc', HOSTILE_GCC(canary), 0o755);
}, 120_000);
afterAll(async () => {
  await box?.destroy();
  rmSync(dir, { recursive: true, force: true });
});

const context = { target: 'local-sandbox', mode: 'accelerated' } as const;

describe('rvport probe against a hostile target', () => {
  it('keeps its sections, the host file and the terminal intact', { timeout: 180_000 }, async () => {
    const before = statSync(canary).mtimeMs;
    const report = await runProbe(box, context);
    // the text after every forged end marker is still in the helper's section: no nonce was found
    // (the hostile program's value, not the real helper's acdfim: the attack ran)
    expect(report.hwcap).toEqual(['v']);
    expect(report.machine).toBe('riscv64');
    // the host's file is neither changed nor readable from inside
    expect(readFileSync(canary, 'utf8')).toBe('host secret\n');
    expect(statSync(canary).mtimeMs).toBe(before);
    expect(readdirSync(dir)).toEqual(['canary.txt']);
    expect(JSON.stringify(report)).not.toContain('host secret');
    // the target's text is only text: escapes gone from the human form, escaped in the JSON
    const human = terminalSafe(formatProbeReport(report));
    expect(human).toContain('/opt/hostile-qemu');
    expect(human).not.toContain('\x1b');
    expect(human).not.toContain('\x07');
    expect(JSON.stringify(report)).not.toContain('\x1b');
  });

  it('refuses a flood with a clear error', { timeout: 180_000 }, async () => {
    await box.writeFile('/etc/rvport-flood', '');
    const error = await runProbe(box, context).catch((e: unknown) => e);
    expect(isProbeOutputError(error)).toBe(true);
    expect((error as Error).message).toMatch(/more than 1 MiB|exited with status/);
  });
});
