import { basename } from 'node:path';
import { readFileConfined, walkConfined } from '../../fs/index.ts';
import { normalizeBuildText } from './normalizeBuildText.ts';

/** What a file of a build tree is, for the report: what configure wrote, what the build made, or else. */
export type BuildFileKind = 'configure' | 'artifact' | 'other';

export interface TreeDifference {
  path: string;
  kind: BuildFileKind;
  /** 1-based line of the first difference in a text file. */
  line?: number;
  detail: string;
}

export interface TreeComparison {
  identical: boolean;
  /** Files (and links) compared. */
  files: number;
  /** Test logs compared by their verdicts only (testLogOf); absent when none. */
  testLogs?: number;
  differences: TreeDifference[];
  /**
   * Differences in files the test step wrote when it failed in both runs (CompareOptions), not
   * counted above: where a failing parallel step stops is run-dependent. Absent when none.
   */
  leftByFailedTests?: TreeDifference[];
}

export interface CompareOptions {
  /**
   * Given only when the test step failed in both runs: when it started in each (ms since the epoch,
   * the same clock as the trees' modification times). A file either run wrote after its test step
   * started is that step's output, and a failed `make -j check` leaves a run-dependent subset of
   * its targets behind (id3lib: one run compiled an example the other had not reached when a
   * compile error stopped both); differences in such files go to `leftByFailedTests`. Everything
   * the build wrote before the tests is compared as always.
   */
  failedTestsStartedAt?: readonly [number, number];
}

/** Names configure (and CMake/Meson setup) writes. */
const CONFIGURE_OUTPUTS =
  /^(config\.status|config\.h|config\.cache|libtool|Makefile|GNUmakefile|config\.mk|CMakeCache\.txt|build\.ninja|.*\.pc|.*config\.h)$/;
const ARTIFACTS = /\.(a|o|lo|la|so(\.\d+)*|ko)$/;

/**
 * Files whose line order is not reproducible even between two builds in the same mode, compared
 * as sorted lines: CMake writes the dependency lines of a target in `Makefile2` in a run-dependent
 * order (cjson configured twice in accelerated mode differs there); meson's test logs list tests
 * in the order parallel tests finished.
 */
export const UNORDERED_FILES: readonly RegExp[] = [
  /(^|\/)CMakeFiles\/Makefile2$/,
  /(^|\/)meson-logs\/testlog\.(txt|json)$/,
];

/**
 * Never compared: rvport's own transfer folder, the git metadata of the source copy rvport made
 * (reflogs carry the clone's time, the index the files' stat data), and ninja's own bookkeeping
 * (`.ninja_log` and the binary `.ninja_deps` record each file's modification time and each step's
 * duration). All differ between any two runs. Everything else the builds wrote is compared.
 */
export const IGNORED_PATHS: readonly RegExp[] = [
  /^\.rvport-transfer(\/|$)/,
  /(^|\/)\.git(\/|$)/,
  /(^|\/)\.ninja_(log|deps)$/,
];

/**
 * The verdict file of a test harness's transcript. Such a log is what the riscv64 test programs
 * printed as they ran, so it holds run-dependent text no normalisation can know (process ids in
 * netlink dumps, the interleaving of stdout and stderr: ell's test-main and test-netlink differ so
 * between any two runs; DejaGnu's temporary sources named after the process id: libffi's
 * `ffitest<pid>.c`); the verdict file beside it holds what the tests decided and is compared in
 * full. Two harnesses write the pair:
 * - automake's parallel harness: each test's output to `T.log`, its results to `T.trs`
 *   (`:test-result: PASS`, …);
 * - DejaGnu (`runtest`, behind `make check` of GCC, binutils, libffi, …): `TOOL.log`, the whole
 *   transcript, and `TOOL.sum`, one `PASS:`/`FAIL:` line per test and the totals.
 * Returns the verdict file's path when `path` is such a log.
 */
export function testLogOf(path: string, exists: (path: string) => boolean): string | undefined {
  if (!path.endsWith('.log')) return undefined;
  const stem = path.slice(0, -'.log'.length);
  return [`${stem}.trs`, `${stem}.sum`].find(exists);
}

export function classifyBuildFile(path: string, content?: Buffer): BuildFileKind {
  if (CONFIGURE_OUTPUTS.test(basename(path))) return 'configure';
  if (ARTIFACTS.test(path) || content?.subarray(0, 4).toString('latin1') === '\x7fELF') return 'artifact';
  return 'other';
}

/** Text for our purposes: no NUL byte in the first 8 KiB. */
function isText(content: Buffer): boolean {
  return !content.subarray(0, 8192).includes(0);
}

const MAX_SHOWN = 160;
const show = (line: string | undefined) =>
  line === undefined
    ? '(end of file)'
    : JSON.stringify(line.length > MAX_SHOWN ? `${line.slice(0, MAX_SHOWN)}…` : line);

/**
 * The first difference between two versions of one file, after normalising what legitimately
 * differs between builds (normalizeBuildText); undefined when they agree.
 */
export function compareFileContents(
  path: string,
  a: Buffer,
  b: Buffer,
  labels: readonly [string, string] = ['a', 'b'],
): TreeDifference | undefined {
  if (a.equals(b)) return undefined;
  const kind = classifyBuildFile(path, a);
  if (isText(a) && isText(b)) {
    const unordered = UNORDERED_FILES.some((pattern) => pattern.test(path));
    const lines = (content: Buffer) => {
      const all = normalizeBuildText(content.toString('utf8'), path).split('\n');
      return unordered ? all.sort() : all;
    };
    const left = lines(a);
    const right = lines(b);
    const length = Math.max(left.length, right.length);
    for (let i = 0; i < length; i++) {
      if (left[i] !== right[i]) {
        return {
          path,
          kind,
          line: i + 1,
          detail: `${labels[0]} ${show(left[i])}, ${labels[1]} ${show(right[i])}`,
        };
      }
    }
    return undefined;
  }
  if (withoutGzipTime(a).equals(withoutGzipTime(b))) return undefined;
  const tarA = withoutTarTimes(a);
  if (tarA && withoutTarTimes(b)?.equals(tarA)) return undefined;
  if (path.endsWith('.pyc') && withoutPycTime(a).equals(withoutPycTime(b))) return undefined;
  // where they part, past the clock readings that do not count
  const [x, y] = a.length === b.length ? [withoutAsciiClocks(a), withoutAsciiClocks(b)] : [a, b];
  if (x.equals(y)) return undefined;
  let at = 0;
  while (at < x.length && at < y.length && x[at] === y[at]) at++;
  return {
    path,
    kind,
    detail: `binary files differ from byte ${at} (${labels[0]} ${a.length} bytes, ${labels[1]} ${b.length} bytes)`,
  };
}

/**
 * A gzip member with its MTIME field (bytes 4–7, RFC 1952) zeroed: gzip writes the file's
 * modification time there (man pages compressed at install), a timestamp like any other.
 * Anything else is returned as it is.
 */
function withoutGzipTime(content: Buffer): Buffer {
  if (content.length < 10 || content[0] !== 0x1f || content[1] !== 0x8b || content[2] !== 0x08)
    return content;
  const copy = Buffer.from(content);
  copy.fill(0, 4, 8);
  return copy;
}

const TAR_BLOCK = 512;
const PAX_TIME = /^\d+ [amc]time=/;

/**
 * A tar archive (ustar or GNU: `ustar` at byte 257 of its first header) in a form without its
 * times: each member's header with its modification time and checksum zeroed, and pax headers
 * without their `mtime`, `atime` and `ctime` records (and so without their size). A build that
 * tars files it wrote (a documentation tree) records the times it wrote them, a timestamp like
 * any other. Undefined for anything else, or an archive that does not parse.
 */
export function withoutTarTimes(content: Buffer): Buffer | undefined {
  if (content.length < TAR_BLOCK || content.subarray(257, 262).toString('latin1') !== 'ustar')
    return undefined;
  const parts: Buffer[] = [];
  let at = 0;
  while (at + TAR_BLOCK <= content.length) {
    const header = Buffer.from(content.subarray(at, at + TAR_BLOCK));
    if (header.every((byte) => byte === 0)) break;
    if (header.subarray(257, 262).toString('latin1') !== 'ustar') return undefined;
    const field = header.subarray(124, 136).toString('latin1').replace(/\0.*$/s, '').trim();
    const size = Number.parseInt(field || '0', 8);
    if (!Number.isSafeInteger(size) || size < 0 || at + TAR_BLOCK + size > content.length) return undefined;
    const type = String.fromCharCode(header[156] ?? 0);
    const data = content.subarray(at + TAR_BLOCK, at + TAR_BLOCK + size);
    header.fill(0, 136, 156);
    if (type === 'x' || type === 'g') {
      header.fill(0, 124, 136);
      const records = data
        .toString('latin1')
        .split('\n')
        .filter((r) => !PAX_TIME.test(r));
      parts.push(header, Buffer.from(records.join('\n'), 'latin1'));
    } else parts.push(header, data);
    at += TAR_BLOCK + Math.ceil(size / TAR_BLOCK) * TAR_BLOCK;
  }
  return Buffer.concat(parts);
}

/**
 * A timestamp-based Python bytecode file (PEP 552: flags 0) with the source's modification time
 * (bytes 8–11) zeroed: a module written during the build is compiled with the time it was written.
 */
function withoutPycTime(content: Buffer): Buffer {
  if (content.length < 16 || content.readUInt32LE(4) !== 0) return content;
  const copy = Buffer.from(content);
  copy.fill(0, 8, 12);
  return copy;
}

/**
 * A calendar date or a time of day written as text: `2026-12-03`, `19:57:04` (not bounded by
 * non-digits: a WAV's broadcast extension holds the two fields side by side, `2026-12-0319:57:04`).
 */
const ASCII_CLOCK = /\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])|(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d/g;

/**
 * A binary file with every date and time of day it holds as text masked, at the same length: a
 * program a test runs may stamp the wall-clock time into a binary it writes (libsndfile's
 * `sndfile-metadata-set --bext-auto-time-date` puts `hh:mm:ss` and `yyyy-mm-dd` into a WAV's
 * broadcast extension chunk), a timestamp like any other. Only the digits of a valid date or time
 * of day are masked, so a difference anywhere else in the file still shows.
 */
function withoutAsciiClocks(content: Buffer): Buffer {
  const text = content.toString('latin1');
  const masked = text.replace(ASCII_CLOCK, (clock) => clock.replace(/\d/g, '#'));
  return masked === text ? content : Buffer.from(masked, 'latin1');
}

type Entry = ({ type: 'file' } | { type: 'link'; target: string } | { type: 'dir' } | { type: 'special' }) & {
  mtimeMs: number;
};

/** Build trees are compared whole: no entry or size limit short of what a Buffer can hold. */
const MAX_COMPARED_BYTES = 2 * 1024 * 1024 * 1024;
/** Deeper than any real build tree; each level holds one descriptor open while it is walked. */
const MAX_COMPARED_DEPTH = 256;

/** The builds wrote both trees: walked without following a link, files read inside the tree. */
async function listTree(root: string): Promise<Map<string, Entry>> {
  const entries = new Map<string, Entry>();
  const ignored = (path: string) => IGNORED_PATHS.some((pattern) => pattern.test(path));
  const walked = walkConfined(root, {
    maxEntries: Number.POSITIVE_INFINITY,
    maxDepth: MAX_COMPARED_DEPTH,
    skipDir: (_name, path) => ignored(path),
  });
  for (const entry of walked.entries) {
    if (ignored(entry.path)) continue;
    const mtimeMs = entry.mtimeMs;
    if (entry.type === 'directory') entries.set(entry.path, { type: 'dir', mtimeMs });
    else if (entry.type === 'link')
      entries.set(entry.path, { type: 'link', target: entry.target ?? '', mtimeMs });
    else if (entry.type === 'file') entries.set(entry.path, { type: 'file', mtimeMs });
    else entries.set(entry.path, { type: 'special', mtimeMs });
  }
  return entries;
}

/**
 * Compares two build trees of the same sources file by file (contents, link targets, which files
 * exist). Modes and timestamps of files are not compared: they are not part of what a port ships.
 */
export async function compareBuildTrees(
  a: string,
  b: string,
  labels: readonly [string, string] = ['a', 'b'],
  options: CompareOptions = {},
): Promise<TreeComparison> {
  const [left, right] = await Promise.all([listTree(a), listTree(b)]);
  const found: TreeDifference[] = [];
  let files = 0;
  let testLogs = 0;
  const paths = [...new Set([...left.keys(), ...right.keys()])].sort();
  const fileInBoth = (path: string) => left.get(path)?.type === 'file' && right.get(path)?.type === 'file';
  for (const path of paths) {
    const [x, y] = [left.get(path), right.get(path)];
    if (!x || !y) {
      found.push({
        path,
        kind: classifyBuildFile(path),
        detail: `only in ${x ? labels[0] : labels[1]}`,
      });
      continue;
    }
    if (x.type !== y.type) {
      found.push({
        path,
        kind: classifyBuildFile(path),
        detail: `${labels[0]} has a ${x.type}, ${labels[1]} a ${y.type}`,
      });
      continue;
    }
    if (x.type === 'link' && y.type === 'link') {
      files++;
      if (x.target !== y.target) {
        found.push({
          path,
          kind: classifyBuildFile(path),
          detail: `link to ${x.target} in ${labels[0]}, to ${y.target} in ${labels[1]}`,
        });
      }
    } else if (x.type === 'file' && testLogOf(path, fileInBoth)) {
      testLogs++;
    } else if (x.type === 'file') {
      files++;
      const difference = compareFileContents(
        path,
        readFileConfined(a, path, { maxBytes: MAX_COMPARED_BYTES }),
        readFileConfined(b, path, { maxBytes: MAX_COMPARED_BYTES }),
        labels,
      );
      if (difference) found.push(difference);
    }
  }
  const started = options.failedTestsStartedAt;
  // a folder only in one tree is judged by its own time too; each file in it is judged by its own
  const byFailedTests = (d: TreeDifference) =>
    started !== undefined &&
    ((left.get(d.path)?.mtimeMs ?? -1) >= started[0] || (right.get(d.path)?.mtimeMs ?? -1) >= started[1]);
  const differences = found.filter((d) => !byFailedTests(d));
  const leftByFailedTests = found.filter(byFailedTests);
  return {
    identical: differences.length === 0,
    files,
    ...(testLogs > 0 ? { testLogs } : {}),
    differences,
    ...(leftByFailedTests.length > 0 ? { leftByFailedTests } : {}),
  };
}

/** One line per difference: `path:line (kind): detail`. */
export function formatDifference(d: TreeDifference): string {
  return `${d.path}${d.line ? `:${d.line}` : ''} (${d.kind}): ${d.detail}`;
}
