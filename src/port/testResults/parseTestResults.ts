import { parseAutomakeConsole, parseAutomakeTrs } from './parseAutomakeResults.ts';
import { parseCargoTestResults } from './parseCargoTestResults.ts';
import { parseCtestConsole, parseCtestLastTestLog } from './parseCtestResults.ts';
import { parseGoTestJson } from './parseGoTestJson.ts';
import { parseMesonConsole, parseMesonTestlog } from './parseMesonResults.ts';
import { parseTapResults } from './parseTapResults.ts';
import type { TestCase } from './TestCase.ts';

/** A harness's own result file, read from the build tree after the run. */
export interface TestResultFile {
  /** Relative to the build tree. */
  path: string;
  text: string;
}

/** At most this many tests are kept per run (a table of thousands helps nobody). */
export const MAX_TEST_CASES = 2000;

/**
 * The tests of one run, per test: from the console output (automake, CTest, meson, cargo,
 * `go test -json`, TAP) and then from the harnesses' files (LastTest.log, testlog.json, `.trs`
 * with its `.log`), which know more and win for the same name. Names seen twice in one source
 * get `#2`, `#3` (TAP numbering restarts per script).
 */
export function parseTestResults(output: string, files: readonly TestResultFile[] = []): TestCase[] {
  const byName = new Map<string, TestCase>();
  const add = (cases: TestCase[], override: boolean) => {
    const seen = new Map<string, number>();
    for (const c of cases) {
      const n = (seen.get(c.name) ?? 0) + 1;
      seen.set(c.name, n);
      const name = n === 1 ? c.name : `${c.name}#${n}`;
      const before = byName.get(name);
      if (!before || override)
        byName.set(name, {
          ...before,
          ...c,
          name,
          ...(c.output || !before?.output ? {} : { output: before.output }),
        });
    }
  };
  for (const parse of [
    parseAutomakeConsole,
    parseCtestConsole,
    parseMesonConsole,
    parseCargoTestResults,
    parseGoTestJson,
    parseTapResults,
  ])
    add(parse(output), false);
  const logs = new Map(files.map((f) => [f.path, f.text]));
  for (const file of files) {
    if (file.path.endsWith('LastTest.log')) add(parseCtestLastTestLog(file.text), true);
    else if (file.path.endsWith('testlog.json')) add(parseMesonTestlog(file.text), true);
    else if (file.path.endsWith('.trs')) {
      const base = file.path.slice(0, -'.trs'.length);
      // the console names the TESTS entry (`tests/foo.sh`), the .trs file drops the extension
      const name = [...byName.keys()].find((k) => k === base || k.replace(/\.[^./]+$/, '') === base) ?? base;
      const one = parseAutomakeTrs(name, file.text, logs.get(`${base}.log`) ?? '');
      if (one) add([one], true);
    }
  }
  return [...byName.values()].slice(0, MAX_TEST_CASES);
}
