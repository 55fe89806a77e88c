import { describe, expect, it } from 'vitest';
import { parseBatchKey, parseFilePath, parsePage, parsePortKey } from './requestPath.ts';

describe('request paths', () => {
  it('accepts port keys of one or two plain names', () => {
    expect(parsePortKey('cjson')).toBe('cjson');
    expect(parsePortKey('ports/libc++')).toBe('ports/libc++');
  });

  it.each(['..', '../etc', 'a/b/c', '/etc/passwd', '.hidden', 'a/..', 'a\\b', '', 'a//b'])(
    'refuses the port key %j with a 400',
    (key) => {
      expect(() => parsePortKey(key)).toThrow(expect.objectContaining({ code: 'bad-request' }));
    },
  );

  it('accepts . and plain names as batch keys', () => {
    expect(parseBatchKey('.')).toBe('.');
    expect(parseBatchKey('ports')).toBe('ports');
    expect(() => parseBatchKey('..')).toThrow(/not a batch key/);
  });

  it('accepts relative file paths and refuses .., absolute paths, NUL and backslashes', () => {
    expect(parseFilePath('artifacts/build/libz.so.1')).toBe('artifacts/build/libz.so.1');
    expect(() => parseFilePath('../../etc/passwd')).toThrow(/leads out/);
    expect(() => parseFilePath('artifacts/../../x')).toThrow(/leads out/);
    expect(() => parseFilePath('/etc/passwd')).toThrow(/absolute/);
    expect(() => parseFilePath('a\0b')).toThrow(/not a file path/);
    expect(() => parseFilePath('a\\..\\b')).toThrow(/not a file path/);
    expect(() => parseFilePath('./a')).toThrow(/plain relative/);
  });

  it('reads page numbers of 1 or more', () => {
    expect(parsePage(undefined)).toBe(1);
    expect(parsePage('7')).toBe(7);
    for (const bad of ['0', '-1', '1.5', 'x', '1e3'])
      expect(() => parsePage(bad)).toThrow(expect.objectContaining({ code: 'bad-request' }));
  });
});
