import { describe, expect, it } from 'vitest';
import { isRvportError, isRvportErrorNamed, RvportError } from './index.ts';

class ExampleError extends RvportError {
  override name = 'ExampleError';
}

describe('RvportError', () => {
  it('carries a code, a message and a cause', () => {
    const cause = new Error('below');
    const error = new ExampleError('some-code', 'it broke', { cause });
    expect(error).toMatchObject({ name: 'ExampleError', code: 'some-code', message: 'it broke', cause });
    expect(new RvportError('x', 'y').cause).toBeUndefined();
  });

  it('is recognised by its brand, with a code when one is asked', () => {
    const error = new ExampleError('some-code', 'it broke');
    expect(isRvportError(error)).toBe(true);
    expect(isRvportError(error, 'some-code')).toBe(true);
    expect(isRvportError(error, 'other')).toBe(false);
    expect(isRvportErrorNamed(error, ['ExampleError'])).toBe(true);
    expect(isRvportErrorNamed(error, ['RvportError'])).toBe(false);
  });

  it('is not fooled by an error that only looks like one (Node errors have codes too)', () => {
    const enoent = Object.assign(new Error('no such file'), { code: 'ENOENT', name: 'ExampleError' });
    expect(isRvportError(enoent)).toBe(false);
    expect(isRvportError({ code: 'some-code', message: 'x' })).toBe(false);
    expect(isRvportError(undefined)).toBe(false);
  });
});
