import { describe, expect, it } from 'vitest';
import { gatherQueueFacts } from '../../src/doctor/queueCheck.ts';
import { freePort } from '../helpers/redisServer.ts';

describe('gatherQueueFacts (real connections)', () => {
  it('is empty without --queue or RVPORT_QUEUE_URL', async () => {
    expect(await gatherQueueFacts({})).toEqual({});
  });

  it('reports a refused connection without the password', async () => {
    const port = await freePort();
    const facts = await gatherQueueFacts({ RVPORT_QUEUE_URL: `redis://u:secret-pw@127.0.0.1:${port}` });
    expect(facts.error).toMatch(/cannot reach the queue/);
    expect(JSON.stringify(facts)).not.toContain('secret-pw');
  });

  it('refuses a URL that is not redis://', async () => {
    const facts = await gatherQueueFacts({}, 'http://127.0.0.1:1');
    expect(facts.error).toContain('redis:// or rediss://');
  });
});
