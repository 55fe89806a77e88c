import { describe, expect, it } from 'vitest';
import { evaluateQueue } from './queueCheck.ts';

describe('evaluateQueue', () => {
  it('says nothing without a queue URL', () => {
    expect(evaluateQueue({})).toEqual([]);
  });

  it('passes a reachable queue and fails an unreachable one with the fix', () => {
    expect(evaluateQueue({ url: 'redis://h:6379' })[0]?.status).toBe('ok');
    const [check] = evaluateQueue({
      url: 'redis://h:6379',
      error: 'cannot reach the queue at redis://h:6379: x',
    });
    expect(check).toMatchObject({ id: 'queue', status: 'fail' });
    expect(check?.fix).toContain('rvport doctor --queue redis://HOST:PORT');
  });
});
