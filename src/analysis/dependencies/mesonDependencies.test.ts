import { describe, expect, it } from 'vitest';
import { mesonDependencies } from './mesonDependencies.ts';

const extract = (text: string) =>
  mesonDependencies.extract({ path: 'meson.build', text, lines: text.split('\n') });

describe('meson dependencies', () => {
  it('reads dependency(), find_library, has_header and find_program', () => {
    const text = [
      "zlib = dependency('zlib')",
      "gtk = dependency('gtk+-3.0', required : false)",
      "thr = dependency('threads')",
      "m = cc.find_library('m', required: false)",
      "cc.has_header('sys/epoll.h')",
      "find_program('python3')",
    ].join('\n');
    expect(extract(text).map((d) => `${d.kind}:${d.name}:${d.required}`)).toEqual([
      'pkg-config:zlib:true',
      'pkg-config:gtk+-3.0:false',
      'header:sys/epoll.h:false',
      'program:python3:true',
    ]);
  });
});
