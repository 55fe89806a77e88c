import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePortHome } from '../helpers/portHome.ts';
import { runCli } from '../helpers/rvportCli.ts';

// A small program written here, correct on x86_64 and wrong on riscv64: its option loop keeps
// getopt_long's int result in a plain char, which is unsigned on riscv64, so -1 becomes 255, the
// loop does not end at -1 and the program takes 255 for an unknown option.
const MINUTES = 60_000;
const PROGRAM = `#include <getopt.h>
#include <stdio.h>

int main(int argc, char **argv) {
  static const struct option longopts[] = {
    {"version", no_argument, 0, 'V'}, {"help", no_argument, 0, 'h'}, {0, 0, 0, 0}};
  char c;
  int verbose = 0, version = 0, help = 0, rounds = 0;
  while ((c = getopt_long(argc, argv, "vVh", longopts, NULL)) != -1) {
    if (++rounds > 50) {
      fprintf(stderr, "optloop: the option loop did not end\\n");
      return 3;
    }
    switch (c) {
    case 'v': verbose++; break;
    case 'V': version = 1; break;
    case 'h': help = 1; break;
    default:
      fprintf(stderr, "optloop: unknown option %d\\n", c);
      return 2;
    }
  }
  if (version) { puts("optloop 1.0"); return 0; }
  if (help) { puts("usage: optloop [-v] [--version] [--help]"); return 0; }
  printf("verbose=%d\\n", verbose);
  return 0;
}
`;
const LOOP_LINE = PROGRAM.split('\n').findIndex((l) => l.includes('getopt_long(argc')) + 1;

const MAKEFILE = [
  'CFLAGS ?= -O2',
  'all: optloop',
  'optloop: optloop.c',
  '\t$(CC) $(CFLAGS) -Wall -Wextra -o $@ optloop.c',
  'check: optloop',
  '\t@st=0; \\',
  '\tif test -x optloop; then echo "PASS: built"; else echo "FAIL: built"; st=1; fi; \\',
  '\tif ./optloop -v -v; then echo "PASS: options"; else echo "FAIL: options"; st=1; fi; \\',
  '\tif ./optloop; then echo "PASS: no-options"; else echo "FAIL: no-options"; st=1; fi; \\',
  '\texit $$st',
  'install: optloop',
  '\tinstall -D -m 0755 optloop $(DESTDIR)/usr/bin/optloop',
  '',
].join('\n');

let home: string;
let work: string;
let project: string;

beforeAll(() => {
  home = makePortHome('rvport-differential-home-');
  work = mkdtempSync(join(tmpdir(), 'rvport-differential-work-'));
  project = join(work, 'optloop');
  mkdirSync(project);
  writeFileSync(join(project, 'optloop.c'), PROGRAM);
  writeFileSync(join(project, 'Makefile'), MAKEFILE);
});

afterAll(() => {
  rmSync(home, { recursive: true, force: true });
  rmSync(work, { recursive: true, force: true });
});

describe('differential tests', () => {
  it(
    'port a program that is wrong only on riscv64: verified, its failures only on riscv64 with the hazard warning beside them, then replayed',
    async () => {
      // --replay: a clean first build would not replay by default (nothing to doubt)
      const port = await runCli(
        ['port', project, '--out', 'out', '--json', '--offline', '--differential', '--replay'],
        {
          cwd: work,
          env: { RVPORT_HOME: home },
        },
      );
      expect(port.code, port.stderr).toBe(0);
      const result = JSON.parse(port.stdout);
      expect(result.result).toBe('verified');
      const out = join(work, 'out', 'optloop');
      const state = JSON.parse(readFileSync(join(out, 'state.json'), 'utf8'));
      expect(state.verification.verdict).toBe('verified');
      expect(state.verification.reason).toMatch(/fail only on riscv64/);
      const diff = state.differential;
      expect(diff.ran, diff.reason).toBe(true);
      const outcome = (kind: string, name: RegExp) =>
        diff.rows.find((r: { kind: string; name: string }) => r.kind === kind && name.test(r.name))?.outcome;
      expect(outcome('test', /^options$/)).toBe('fails only on riscv64');
      expect(outcome('test', /^no-options$/)).toBe('fails only on riscv64');
      expect(outcome('test', /^built$/)).toBe('passes on both');
      expect(outcome('test run', /exit status/)).toBe('fails only on riscv64');
      expect(outcome('smoke', /optloop --version$/)).toBe('fails only on riscv64');
      expect(diff.riscv64Only).toBeGreaterThanOrEqual(4);
      expect(diff.x86Only).toBe(0);
      // the compiler's warning and the scan's finding point at the loop's line together
      const pair = diff.hazards.find((h: { warning?: string; finding?: string }) => h.warning && h.finding);
      expect(pair, JSON.stringify(diff.hazards)).toBeDefined();
      expect(pair.location).toBe(`optloop.c:${LOOP_LINE}`);
      expect(pair.warning).toMatch(/comparison is always true due to limited range of data type/);
      expect(pair.finding).toMatch(/char is unsigned on riscv64/);
      // the riscv64 output of a failing test is kept
      const testRun = diff.rows.find((r: { kind: string }) => r.kind === 'test run');
      expect(testRun.output).toMatch(/FAIL: options/);
      // the x86_64 side is cheap next to the emulated run (both measured)
      expect(diff.x86BuildMs).toBeGreaterThan(0);
      const report = readFileSync(join(out, 'report.md'), 'utf8');
      expect(report).toContain('## Differential tests (riscv64 against x86_64)');
      expect(report).toMatch(/\| fails only on riscv64 \| [4-9] \|/);
      expect(report).toContain('comparison is always true due to limited range of data type');
      expect(readFileSync(join(out, 'differential.log'), 'utf8')).toContain('PASS: options');
      // the replay ran as the port's last step (asked for)
      expect(state.replay).toMatchObject({ replayed: 'yes' });
      expect(report).toMatch(/## Replay\n\nReplayed: \*\*yes\*\*/);
      expect(readFileSync(join(out, 'replay.md'), 'utf8')).toContain('Replayed: **yes**');
      const entryDir = join(home, 'recipes', 'optloop');
      const entry = JSON.parse(readFileSync(join(entryDir, readdirSync(entryDir)[0] as string), 'utf8'));
      expect(entry.replay).toMatchObject({ replayed: 'yes' });
      expect(entry.differential).toMatchObject({ ran: true });
      expect(entry.differential.riscv64Only).toBeGreaterThanOrEqual(4);
      writeFileSync(join(tmpdir(), 'rvport-differential-example-report.md'), report);
    },
    60 * MINUTES,
  );
});
