import { describe, expect, it } from 'vitest';
import { failedResult } from '../batch/EntryResult.ts';
import { invalidEntry, portResult, validEntry } from '../batch/testing/batchFixtures.ts';
import { BatchProgress } from './BatchProgress.ts';

function fakeStream() {
  const written: string[] = [];
  const stream = { write: (s: string) => written.push(s), isTTY: false } as unknown as NodeJS.WriteStream;
  return { stream, text: () => written.join('') };
}

describe('BatchProgress', () => {
  it('prints a line per start and end, and keeps count of running, done and failed ports', () => {
    const { stream, text } = fakeStream();
    const progress = new BatchProgress(stream, false);
    const sl = validEntry('sl', 1);
    const luajit = validEntry('luajit', 2);
    const bad = invalidEntry('ftp://x', 3, 'unknown scheme');
    progress.handle({ type: 'plan', entries: 3, skipped: 0, pending: 3 });
    progress.handle({ type: 'finished', entry: bad, result: failedResult(bad, 'invalid', 'unknown scheme') });
    progress.handle({ type: 'started', entry: sl, where: 'local' });
    progress.handle({ type: 'started', entry: luajit, where: 'host:42' });
    expect(progress.status()).toMatch(
      /^running 2 \(sl \d+s, luajit \d+s\) \| done 0 \| failed 1 \| waiting 0$/,
    );
    progress.handle({ type: 'finished', entry: sl, result: portResult(sl, { wallMs: 15_000 }) });
    progress.handle({ type: 'interrupted', entry: luajit });
    expect(progress.status()).toBe('running 0 | done 1 | failed 1 | waiting 1');
    progress.stop();
    expect(text()).toBe(
      [
        'batch: 3 entries, 0 finished in an earlier run, 3 to do',
        '  failed   ftp://x (invalid): unknown scheme   [1/3]',
        '  started  sl',
        '  started  luajit on host:42',
        '  done     sl (verified in 15.0 s)   [2/3]',
        '  stopped  luajit (resumes on the next run)',
        '',
      ].join('\n'),
    );
  });
});
