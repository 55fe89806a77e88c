import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OutputFolder } from './OutputFolder.ts';
import { parseSummaryEntries, readBatchState, toBatchView } from './readBatch.ts';
import { readOverview } from './readOverview.ts';
import { readPortDetail } from './readPortDetail.ts';
import {
  HOSTILE_TEXT,
  portResult,
  validEntry,
  writeBatchState,
  writeEscalatedPort,
  writeVerifiedPort,
} from './testing/outputFixtures.ts';

let out: string;
beforeEach(() => {
  out = mkdtempSync(join(tmpdir(), 'rvport-serve-read-'));
});
afterEach(() => rmSync(out, { recursive: true, force: true }));

const nobodyRuns = () => false;

describe('the ports table', () => {
  it('reads a verified and an escalated port from what the port writer wrote', async () => {
    await writeVerifiedPort(out, 'cjson');
    await writeEscalatedPort(out, 'hesiod', { noiseLines: 3 });
    const view = readOverview(new OutputFolder(out), nobodyRuns, out);
    expect(view.problems).toEqual([]);
    const byName = Object.fromEntries(view.ports.map((p) => [p.name, p]));
    expect(byName.cjson).toMatchObject({
      key: 'cjson',
      verdict: 'verified',
      buildSystem: 'cmake',
      mode: 'accelerated',
      wallMs: 42_000,
      tests: { ran: true, passed: 19, failed: 0 },
      replay: 'identical 1 of 1',
      differential: null,
      category: null,
    });
    expect(byName.hesiod).toMatchObject({
      verdict: 'escalated',
      category: 'COMPILATION',
      buildSystem: 'autotools',
    });
  });

  it('reads a corrupt state.json as a problem, not a crash, and still lists the port', async () => {
    await writeVerifiedPort(out, 'good');
    mkdirSync(join(out, 'bad'));
    writeFileSync(join(out, 'bad', 'state.json'), '{ not json');
    const view = readOverview(new OutputFolder(out), nobodyRuns, out);
    expect(view.ports.map((p) => p.name).sort()).toEqual(['bad', 'good']);
    expect(view.ports.find((p) => p.name === 'bad')?.verdict).toBe('unfinished');
    expect(view.problems.join('\n')).toMatch(/bad\/state.json is not JSON/);
  });

  it('never follows a port folder or a state.json that is a link out of the output folder', async () => {
    const elsewhere = mkdtempSync(join(tmpdir(), 'rvport-serve-elsewhere-'));
    try {
      await writeVerifiedPort(elsewhere, 'outside');
      symlinkSync(join(elsewhere, 'outside'), join(out, 'linked'));
      mkdirSync(join(out, 'sneaky'));
      symlinkSync(join(elsewhere, 'outside', 'state.json'), join(out, 'sneaky', 'state.json'));
      writeFileSync(join(out, 'sneaky', 'build.log'), 'x\n');
      const view = readOverview(new OutputFolder(out), nobodyRuns, out);
      expect(view.ports.map((p) => p.name)).toEqual(['sneaky']);
      expect(view.ports[0]?.verdict).toBe('unfinished'); // its state.json is a link: not read
    } finally {
      rmSync(elsewhere, { recursive: true, force: true });
    }
  });
});

describe("a port's page", () => {
  it('lists artifacts with the sha256 the state recorded, documents, times and logs', async () => {
    await writeVerifiedPort(out, 'cjson');
    const detail = readPortDetail(new OutputFolder(out), nobodyRuns, 'cjson');
    expect(detail.artifacts).toEqual([
      expect.objectContaining({
        path: 'artifacts/build/libcjson.so.1',
        sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
      }),
    ]);
    expect(detail.artifacts[0]?.facts).toBe('riscv64 64-bit shared shared-library');
    expect(detail.files.map((f) => f.path)).toEqual(
      expect.arrayContaining(['report.md', 'state.json', 'build.sh', 'build.log']),
    );
    expect(detail.documents.map((d) => d.name)).toEqual(['report.md', 'recipe.md']);
    expect(detail.documents[0]?.markdown).toMatch(/^# Port report: cjson/);
    expect(detail.nodeTimes.map((t) => t.name)).toEqual(['init', 'build', 'finish', 'replay']);
    expect(detail.phaseTimes).toEqual([
      { name: 'configure', ms: 12_000 },
      { name: 'build', ms: 20_000 },
      { name: 'test', ms: 3_000 },
    ]);
    expect(detail.logs).toEqual([{ file: 'build.log', bytes: expect.any(Number) }]);
  });

  it('shows an escalated port with its escalation and last error, hostile text kept as text', async () => {
    await writeEscalatedPort(out, 'hesiod', { noiseLines: 3 });
    const detail = readPortDetail(new OutputFolder(out), nobodyRuns, 'hesiod');
    expect(detail.documents.map((d) => d.name)).toEqual(['report.md', 'escalation.md']);
    expect(detail.lastError).toMatchObject({ category: 'COMPILATION', command: 'make -j2' });
    expect(detail.lastError?.errorLine).toContain(HOSTILE_TEXT);
    expect(detail.escalationReason).toContain(HOSTILE_TEXT);
  });

  it('does not list a link in artifacts/ (to /etc/passwd) among the files', async () => {
    const dir = await writeVerifiedPort(out, 'cjson');
    symlinkSync('/etc/passwd', join(dir, 'artifacts', 'passwd'));
    symlinkSync('/etc', join(dir, 'artifacts', 'etc'));
    const detail = readPortDetail(new OutputFolder(out), nobodyRuns, 'cjson');
    const paths = [...detail.artifacts, ...detail.files].map((f) => f.path);
    expect(paths.some((p) => p.includes('passwd') || p.includes('etc'))).toBe(false);
  });

  it('answers not-found for a port that is not there', () => {
    expect(() => readPortDetail(new OutputFolder(out), nobodyRuns, 'nope')).toThrow(
      expect.objectContaining({ code: 'not-found' }),
    );
  });
});

describe('a batch', () => {
  const entries = ['zlib', 'cjson', 'hesiod', 'mawk'].map((n, i) => validEntry(n, i + 1));

  it('reads the entries from summary.md, results from results.jsonl, and the running ports', async () => {
    const [zlib, cjson, hesiod] = entries as [(typeof entries)[0], (typeof entries)[0], (typeof entries)[0]];
    await writeVerifiedPort(out, 'zlib');
    await writeEscalatedPort(out, 'hesiod', { noiseLines: 1 });
    await writeBatchState(
      out,
      entries,
      [
        portResult(zlib),
        portResult(hesiod, { verdict: 'escalated', errorCategory: 'COMPILATION', buildSystem: 'autotools' }),
      ],
      { lockedBy: process.pid },
    );
    // cjson started after the lock was taken: its folder and port.log exist, no result yet
    mkdirSync(join(out, 'cjson'));
    writeFileSync(join(out, 'cjson', 'port.log'), '» init\n');
    void cjson;
    const folder = new OutputFolder(out);
    const batch = folder.layout().batches[0];
    if (!batch) throw new Error('no batch found');
    const view = toBatchView(
      '.',
      batch,
      readBatchState(folder, batch, (pid) => pid === process.pid, []),
    );
    expect(view).toMatchObject({
      running: true,
      holder: process.pid,
      entries: 4,
      finished: 2,
      verified: 1,
      failed: 1,
      inFlight: 1,
    });
    expect(view.rows.map((r) => [r.line, r.name, r.verdict])).toEqual([
      [1, 'zlib', 'verified'],
      [2, 'cjson', 'running'],
      [3, 'hesiod', 'escalated'],
      [4, 'mawk', 'unfinished'],
    ]);
    expect(view.byCategory).toEqual([
      { label: '(no error)', counts: { verified: 1 } },
      { label: 'COMPILATION', counts: { escalated: 1 } },
    ]);
    const overview = readOverview(folder, (pid) => pid === process.pid, out);
    expect(overview.batches).toEqual([{ key: '.', running: true }]);
    expect(overview.ports.find((p) => p.name === 'cjson')?.verdict).toBe('running');
  });

  it('a lock of a process that is gone is no running batch', async () => {
    await writeBatchState(out, entries, [], { lockedBy: 999_999_999 });
    const folder = new OutputFolder(out);
    const batch = folder.layout().batches[0];
    if (!batch) throw new Error('no batch found');
    const state = readBatchState(folder, batch, () => false, []);
    expect(state.running).toBe(false);
    expect(toBatchView('.', batch, state).rows.every((r) => r.verdict === 'unfinished')).toBe(true);
  });

  it('parses escaped names in summary.md', () => {
    const md =
      '# rvport batch\n\n| line | package | verdict | x |\n|---|---|---|---|\n| 1 | a\\|b | not finished | | |\n| 2 | c\\\\d | verified | |\n\n## By build system\n';
    expect(parseSummaryEntries(md)).toEqual([
      { line: 1, name: 'a|b' },
      { line: 2, name: 'c\\d' },
    ]);
  });
});
