import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import {
  classifyBuildFile,
  compareBuildTrees,
  compareFileContents,
  formatDifference,
  withoutTarTimes,
} from './compareBuildTrees.ts';
import { normalizeBuildText } from './normalizeBuildText.ts';

describe('normalizeBuildText', () => {
  it('masks wall-clock times everywhere and durations only in test logs', () => {
    expect(normalizeBuildText('built on Mon Nov 30 14:04:27 UTC 2026 by me')).toBe('built on <TIME> by me');
    expect(normalizeBuildText('at 2026-11-30T14:04:27.123Z')).toBe('at <TIME>');
    expect(normalizeBuildText('"POT-Creation-Date: 2026-12-03 10:07+0000\\n"', 'po/x.pot')).toBe(
      '"POT-Creation-Date: <TIME>\\n"',
    );
    // a date and a time of day without seconds or a zone is not taken for a clock reading
    expect(normalizeBuildText('release 2026-12-03 10:07 notes')).toBe('release 2026-12-03 10:07 notes');
    expect(normalizeBuildText('./configure: line 1864:  2538 Aborted     ./conftest$ac_exeext')).toBe(
      './configure: line 1864:  <PID> Aborted     ./conftest$ac_exeext',
    );
    expect(
      normalizeBuildText('Start testing: Nov 30 15:17 UTC', 'build/Testing/Temporary/LastTest.log'),
    ).toBe('Start testing: <TIME>');
    expect(normalizeBuildText('cJSON_test 1 0.185901\n', 'build/Testing/Temporary/CTestCostData.txt')).toBe(
      'cJSON_test 1 <DURATION>\n',
    );
    expect(normalizeBuildText('source: "/build/CMakeScratch/TryCompile-YZDXLJ"')).toBe(
      'source: "/build/CMakeScratch/TryCompile-XXXXXX"',
    );
    expect(normalizeBuildText('/usr/bin/gmake -f Makefile cmTC_c013b/fast')).toBe(
      '/usr/bin/gmake -f Makefile cmTC_XXXXX/fast',
    );
    expect(normalizeBuildText("ld: /tmp/cczUIWLj.o: in function `main':")).toBe(
      "ld: /tmp/ccXXXXXX.o: in function `main':",
    );
    expect(normalizeBuildText("/tmp/Gmt7RyG8:3467: warning: overriding recipe for target 'x'")).toBe(
      "/tmp/GmXXXXXX:3467: warning: overriding recipe for target 'x'",
    );
    expect(normalizeBuildText('/tmp/Gmt7RyG8x')).toBe('/tmp/Gmt7RyG8x');
    expect(normalizeBuildText('took 1.25 s', 'Makefile')).toBe('took 1.25 s');
    expect(normalizeBuildText('took 1.25 s', 'tests/test-suite.log')).toBe('took <DURATION>');
  });

  it('leaves everything else alone (paths, hosts, numbers)', () => {
    const line = "host='riscv64-unknown-linux-gnu' prefix=/build/src/x 1024 -O2";
    expect(normalizeBuildText(line, 'config.status')).toBe(line);
  });
});

describe('compareFileContents', () => {
  it('names the first differing line of a text file', () => {
    const d = compareFileContents(
      'config.status',
      Buffer.from("a\nhost='riscv64'\nc\n"),
      Buffer.from("a\nhost='x86_64'\nc\n"),
      ['accelerated', 'native-userland'],
    );
    expect(d).toEqual({
      path: 'config.status',
      kind: 'configure',
      line: 2,
      detail: `accelerated "host='riscv64'", native-userland "host='x86_64'"`,
    });
    expect(formatDifference(d as NonNullable<typeof d>)).toBe(
      `config.status:2 (configure): accelerated "host='riscv64'", native-userland "host='x86_64'"`,
    );
  });

  it('compares CMake’s Makefile2 as a set of lines (its order differs from run to run)', () => {
    const a = Buffer.from('all: x.dir/all\nall: y.dir/all\n');
    const b = Buffer.from('all: y.dir/all\nall: x.dir/all\n');
    expect(compareFileContents('build/CMakeFiles/Makefile2', a, b)).toBeUndefined();
    expect(compareFileContents('build/Makefile', a, b)?.line).toBe(1);
  });

  it('treats files that differ only in timestamps as identical', () => {
    expect(
      compareFileContents(
        'stamp',
        Buffer.from('Mon Nov 30 14:04:27 UTC 2026\n'),
        Buffer.from('Tue Dec  1 09:00:00 UTC 2026\n'),
      ),
    ).toBeUndefined();
  });

  it("ignores only gzip's MTIME field: the same content compressed at two times agrees, other content does not", () => {
    const man = Buffer.from('.TH CK_HS_HASH 3\n'.repeat(20));
    const at = (mtime: number, content = man) => {
      const gz = gzipSync(content);
      gz.writeUInt32LE(mtime, 4);
      return gz;
    };
    expect(compareFileContents('dest/man3/x.3.gz', at(1796053804), at(1796057764))).toBeUndefined();
    const other = compareFileContents('dest/man3/x.3.gz', at(1), at(1, Buffer.from('.TH OTHER 3\n')));
    expect(other?.detail).toMatch(/^binary files differ from byte 1\d/);
  });

  it('ignores dates and times of day written as text into a binary, and nothing else in it', () => {
    // a WAV with a broadcast extension chunk stamped by the test that wrote it (libsndfile)
    const wav = (date: string, time: string, samples = [1, 2, 3, 4]) => {
      const bext = Buffer.alloc(602);
      bext.write('sine', 0, 'latin1');
      bext.write(date, 320, 'latin1');
      bext.write(time, 330, 'latin1');
      return Buffer.concat([
        Buffer.from('RIFF\x00\x00\x00\x00WAVEbext\x5a\x02\x00\x00', 'latin1'),
        bext,
        Buffer.from('data\x04\x00\x00\x00', 'latin1'),
        Buffer.from(samples),
      ]);
    };
    expect(
      compareFileContents(
        'programs/date-time.wav',
        wav('2026-12-03', '19:57:04'),
        wav('2026-12-04', '20:13:59'),
      ),
    ).toBeUndefined();
    const samples = compareFileContents(
      'programs/date-time.wav',
      wav('2026-12-03', '19:57:04'),
      wav('2026-12-03', '20:13:59', [1, 2, 3, 5]),
    );
    expect(samples?.detail).toMatch(/^binary files differ from byte 633 /);
    // not a time of day, not a date: still a difference
    expect(
      compareFileContents('x.bin', wav('2026-12-03', '19:57:04'), wav('2026-12-03', '29:57:04')),
    ).toBeDefined();
    expect(compareFileContents('x.bin', wav('2026-12-03', '1'), wav('2026-12-03', '2'))).toBeDefined();
    expect(compareFileContents('x.bin', wav('2026-13-03', '1'), wav('2026-14-03', '1'))).toBeDefined();
    // another length is another file
    expect(
      compareFileContents('x.bin', wav('2026-12-03', '19:57:04'), wav('2026-12-03', '19:57:04', [1])),
    ).toBeDefined();
  });

  it('ignores the source time in timestamp-based .pyc files only', () => {
    const pyc = (flags: number, mtime: number, code = 'code') => {
      const header = Buffer.alloc(16);
      header.write('\xf3\x0d\x0d\x0a', 0, 'latin1');
      header.writeUInt32LE(flags, 4);
      header.writeUInt32LE(mtime, 8);
      header.writeUInt32LE(1849, 12);
      return Buffer.concat([header, Buffer.from(code)]);
    };
    expect(compareFileContents('src/__pycache__/imp.cpython-313.pyc', pyc(0, 1), pyc(0, 2))).toBeUndefined();
    expect(
      compareFileContents('src/__pycache__/imp.cpython-313.pyc', pyc(0, 1), pyc(0, 1, 'other')),
    ).toBeDefined();
    // hash-based (flags 1): bytes 8–15 are the source hash, which must agree
    expect(compareFileContents('src/__pycache__/imp.cpython-313.pyc', pyc(1, 1), pyc(1, 2))).toBeDefined();
    expect(compareFileContents('src/imp.bin', pyc(0, 1), pyc(0, 2))).toBeDefined();
  });

  it('reports where binaries part and classifies ELF files as artifacts', () => {
    const a = Buffer.from('\x7fELF\x02\x01\x00\x00abc', 'latin1');
    const b = Buffer.from('\x7fELF\x02\x01\x00\x00abd', 'latin1');
    const d = compareFileContents('src/liblzo2.so.2', a, b);
    expect(d?.kind).toBe('artifact');
    expect(d?.detail).toMatch(/^binary files differ from byte 10/);
    expect(classifyBuildFile('bin/tool', a)).toBe('artifact');
    expect(classifyBuildFile('lzo2.pc')).toBe('configure');
    expect(classifyBuildFile('README')).toBe('other');
  });
});

describe('compareBuildTrees', () => {
  it('finds extra files, different links and different contents; ignores the transfer folder', async () => {
    const root = await mkdtemp(join(tmpdir(), 'rvport-compare-'));
    const [a, b] = [join(root, 'a'), join(root, 'b')];
    for (const dir of [a, b]) {
      await mkdir(join(dir, 'src'), { recursive: true });
      await mkdir(join(dir, '.rvport-transfer'), { recursive: true });
      await writeFile(join(dir, 'src', 'same.c'), 'int x;\n');
    }
    await writeFile(join(a, '.rvport-transfer', 'junk'), '1');
    await mkdir(join(a, '.git', 'logs'), { recursive: true });
    await writeFile(join(a, '.git', 'logs', 'HEAD'), 'clone at 1796053804');
    await writeFile(join(a, 'src', '.ninja_deps'), 'mtimes a');
    await writeFile(join(b, 'src', '.ninja_deps'), 'mtimes b');
    await writeFile(join(a, 'Makefile'), 'CC = gcc\n');
    await writeFile(join(b, 'Makefile'), 'CC = cc\n');
    await writeFile(join(a, 'only-a'), '');
    await symlink('same.c', join(a, 'src', 'link'));
    await symlink('other.c', join(b, 'src', 'link'));
    const result = await compareBuildTrees(a, b, ['accelerated', 'native-userland']);
    expect(result.identical).toBe(false);
    expect(result.differences.map(formatDifference)).toEqual([
      'Makefile:1 (configure): accelerated "CC = gcc", native-userland "CC = cc"',
      'only-a (other): only in accelerated',
      'src/link (other): link to same.c in accelerated, to other.c in native-userland',
    ]);
    const same = await compareBuildTrees(join(a, 'src'), join(a, 'src'));
    expect(same).toEqual({ identical: true, files: 2, differences: [] });
  });

  it('sets apart what a test step that failed in both runs left, and nothing the build wrote before it', async () => {
    const root = await mkdtemp(join(tmpdir(), 'rvport-compare-'));
    const [a, b] = [join(root, 'a'), join(root, 'b')];
    const testsStarted = Date.parse('2026-12-03T12:00:00Z');
    const before = new Date(testsStarted - 60_000);
    const during = new Date(testsStarted + 5_000);
    for (const dir of [a, b]) {
      await mkdir(join(dir, 'examples', '.deps'), { recursive: true });
      await writeFile(join(dir, 'examples', '.deps', 'findstr.Po'), '# dummy\n');
      await writeFile(join(dir, 'lib.o'), 'object');
      await utimes(join(dir, 'lib.o'), before, before);
      await utimes(join(dir, 'examples', '.deps', 'findstr.Po'), before, before);
    }
    // the failing `make -j2 check` of b got as far as one more example than a's
    await writeFile(join(b, 'examples', 'findstr.o'), 'object');
    await writeFile(join(b, 'examples', '.deps', 'findstr.Po'), 'findstr.o: findstr.cpp\n');
    await utimes(join(b, 'examples', 'findstr.o'), during, during);
    await utimes(join(b, 'examples', '.deps', 'findstr.Po'), during, during);
    const labels = ['accelerated', 'native-userland'] as const;
    const failedTestsStartedAt = [testsStarted, testsStarted] as const;
    const judged = await compareBuildTrees(a, b, labels, { failedTestsStartedAt });
    expect(judged.identical).toBe(true);
    expect(judged.leftByFailedTests?.map(formatDifference)).toEqual([
      'examples/.deps/findstr.Po:1 (other): accelerated "# dummy", native-userland "findstr.o: findstr.cpp"',
      'examples/findstr.o (artifact): only in native-userland',
    ]);
    // without a failed test step in both runs, the same trees differ
    expect((await compareBuildTrees(a, b, labels)).identical).toBe(false);
    // an object the build wrote before the tests still differs, failed tests or not
    await writeFile(join(b, 'lib.o'), 'another object');
    await utimes(join(b, 'lib.o'), before, before);
    const built = await compareBuildTrees(a, b, labels, { failedTestsStartedAt });
    expect(built.identical).toBe(false);
    expect(built.differences.map((d) => d.path)).toEqual(['lib.o']);
    await rm(root, { recursive: true, force: true });
  });

  it("compares an automake test's log by its verdicts (.trs), and a log without one in full", async () => {
    const root = await mkdtemp(join(tmpdir(), 'rvport-compare-'));
    const [a, b] = [join(root, 'a'), join(root, 'b')];
    for (const [dir, pid] of [
      [a, '26df'],
      [b, '123f'],
    ] as const) {
      await mkdir(join(dir, 'unit'), { recursive: true });
      await writeFile(
        join(dir, 'unit', 'test-netlink.log'),
        `[NETLINK] > 20 00 00 00 ${pid}\nPASS: test-netlink\n`,
      );
      await writeFile(
        join(dir, 'unit', 'test-netlink.trs'),
        ':test-result: PASS\n:global-test-result: PASS\n',
      );
      await writeFile(join(dir, 'unit', 'build.log'), `pid ${pid}\n`);
    }
    const result = await compareBuildTrees(a, b, ['accelerated', 'native-userland']);
    expect(result.differences.map(formatDifference)).toEqual([
      'unit/build.log:1 (other): accelerated "pid 26df", native-userland "pid 123f"',
    ]);
    expect(result.testLogs).toBe(1);
    // a verdict that differs is a difference
    await writeFile(join(b, 'unit', 'test-netlink.trs'), ':test-result: FAIL\n:global-test-result: FAIL\n');
    await writeFile(join(b, 'unit', 'build.log'), 'pid 26df\n');
    expect((await compareBuildTrees(a, b)).differences.map(formatDifference)).toEqual([
      'unit/test-netlink.trs:1 (other): a ":test-result: PASS", b ":test-result: FAIL"',
    ]);
    // a log whose .trs only one build wrote is compared in full (and the .trs is missing)
    await rm(join(b, 'unit', 'test-netlink.trs'));
    expect((await compareBuildTrees(a, b)).differences.map((d) => d.path)).toEqual([
      'unit/test-netlink.log',
      'unit/test-netlink.trs',
    ]);
  });
  it("compares DejaGnu's transcript by its summary (.sum): libffi's temporary sources are named after the process id", async () => {
    const root = await mkdtemp(join(tmpdir(), 'rvport-compare-'));
    const [a, b] = [join(root, 'a'), join(root, 'b')];
    for (const [dir, pid] of [
      [a, '140'],
      [b, '79'],
    ] as const) {
      await mkdir(join(dir, 'testsuite'), { recursive: true });
      await writeFile(
        join(dir, 'testsuite', 'libffi.log'),
        `Executing on host: gcc  ffitest${pid}.c  -S -o ffitest${pid}.s\nPASS: libffi.call/float.c\n`,
      );
      await writeFile(
        join(dir, 'testsuite', 'libffi.sum'),
        'PASS: libffi.call/float.c\n# of expected passes\t1\n',
      );
    }
    const result = await compareBuildTrees(a, b, ['accelerated', 'native-userland']);
    expect(result.differences).toEqual([]);
    expect(result.testLogs).toBe(1);
    await writeFile(
      join(b, 'testsuite', 'libffi.sum'),
      'FAIL: libffi.call/float.c\n# of expected passes\t0\n',
    );
    expect((await compareBuildTrees(a, b)).differences.map(formatDifference)).toEqual([
      'testsuite/libffi.sum:1 (other): a "PASS: libffi.call/float.c", b "FAIL: libffi.call/float.c"',
    ]);
    await rm(root, { recursive: true, force: true });
  });
});

describe('tar archives a build wrote', () => {
  const tarOf = (dir: string, format: string, mtime: string, text: string) => {
    writeFileSync(join(dir, 'index.html'), text);
    writeFileSync(join(dir, 'style.css'), 'body {}\n');
    const out = join(dir, `${format}-${mtime}.tar`);
    execFileSync('tar', [
      `--format=${format}`,
      `--mtime=${mtime}`,
      '-cf',
      out,
      '-C',
      dir,
      'index.html',
      'style.css',
    ]);
    return readFileSync(out);
  };

  it('agree when only the times of their members differ, in GNU, ustar and pax archives', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rvport-tar-'));
    try {
      for (const format of ['gnu', 'ustar', 'pax']) {
        const a = tarOf(dir, format, '2026-01-01 10:00:00', '<p>docs</p>\n');
        const b = tarOf(dir, format, '2026-12-02 17:00:00.5', '<p>docs</p>\n');
        expect(a.equals(b), format).toBe(false);
        expect(compareFileContents('doc/html.tar', a, b), format).toBeUndefined();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('differ when a member differs', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rvport-tar-'));
    try {
      const a = tarOf(dir, 'gnu', '2026-01-01 10:00:00', '<p>docs</p>\n');
      const b = tarOf(dir, 'gnu', '2026-12-02 17:00:00', '<p>DOCS</p>\n');
      expect(compareFileContents('doc/html.tar', a, b)?.detail).toMatch(/^binary files differ from byte/);
      expect(withoutTarTimes(Buffer.from('not a tar'))).toBeUndefined();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
