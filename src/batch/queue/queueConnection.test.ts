import { describe, expect, it } from 'vitest';
import { checkQueueUrl, QueueUrlError, queueConnectionOptions, redact, scrub } from './queueConnection.ts';

describe('the queue URL', () => {
  it('accepts redis:// and rediss:// with user, password and db', () => {
    expect(checkQueueUrl('redis://:pw@127.0.0.1:6379/2').hostname).toBe('127.0.0.1');
    expect(checkQueueUrl('rediss://user:pw@redis.example.invalid:6380').protocol).toBe('rediss:');
  });

  it('turns TLS on for rediss:// in any case, and only for it', () => {
    expect(queueConnectionOptions('rediss://h:6380')).toEqual({ tls: {} });
    expect(queueConnectionOptions('REDISS://h:6380')).toEqual({ tls: {} });
    expect(queueConnectionOptions('redis://h:6379')).toEqual({});
  });

  it('never shows the password in its messages', () => {
    expect(redact('redis://:s3cret@h:1/0')).toBe('redis://:***@h:1/0');
    expect(redact('rediss://me:s3cret@h:1')).toBe('rediss://me:***@h:1');
    expect(redact('redis://h:1')).toBe('redis://h:1');
    expect(redact('redis://me:s3cret@[bad')).not.toContain('s3cret');
    for (const url of ['http://me:s3cret@h:1', 'redis://me:s3cret@[bad', 'redis://me:s3cret@']) {
      let message = '';
      try {
        checkQueueUrl(url);
      } catch (error) {
        expect(error).toBeInstanceOf(QueueUrlError);
        message = (error as Error).message;
      }
      expect(message).not.toBe('');
      expect(message).not.toContain('s3cret');
    }
  });

  it('scrubs the password from a message, spelled or decoded', () => {
    expect(scrub('AUTH p@ss:1 failed for p%40ss%3A1', 'redis://:p%40ss%3A1@h:1')).toBe(
      'AUTH *** failed for ***',
    );
    expect(scrub('nothing here', 'redis://h:1')).toBe('nothing here');
  });
});
