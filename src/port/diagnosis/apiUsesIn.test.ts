import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { apiUsesIn } from './apiUsesIn.ts';

const fixture = (name: string) => readFileSync(new URL(`../fixtures/${name}`, import.meta.url), 'utf8');

describe('apiUsesIn', () => {
  it("reads gcc's missing members, with the nearest name (FFmpeg 7 headers)", () => {
    expect(apiUsesIn(fixture('api-drift-ffmpeg-channel-layout.txt'))).toEqual([
      {
        kind: 'member',
        of: 'AVCodecContext',
        symbol: 'channel_layout',
        suggestion: 'ch_layout',
        at: 'ff.c:3',
      },
      { kind: 'member', of: 'AVCodecContext', symbol: 'channels', at: 'ff.c:3' },
      { kind: 'function', symbol: 'av_get_channel_layout_nb_channels', at: 'ff.c:4' },
    ]);
  });

  it("reads g++'s undeclared names (libgpiod 2 headers)", () => {
    const uses = apiUsesIn(fixture('api-drift-libgpiod-v2-cxx.txt'));
    expect(uses.map((u) => [u.kind, u.symbol, u.suggestion])).toEqual([
      ['identifier', 'gpiod_chip_open_by_name', 'gpiod_chip_info_get_name'],
      ['identifier', 'gpiod_chip_get_line', 'gpiod_chip_get_info'],
      ['identifier', 'gpiod_line_request_output', 'gpiod_line_request_get_fd'],
    ]);
  });

  it('reads gcc 14 errors for implicit declarations (a riscv64 build against libgpiod 2)', () => {
    const uses = apiUsesIn(fixture('api-drift-libgpiod-v2-gcc14.txt'));
    expect(uses.map((u) => [u.kind, u.symbol, u.suggestion, u.at])).toEqual([
      ['function', 'gpiod_chip_open_by_name', 'gpiod_chip_info_get_name', 'blink.c:3'],
      ['function', 'gpiod_chip_get_line', 'gpiod_chip_get_info', 'blink.c:4'],
      ['function', 'gpiod_line_request_output', 'gpiod_line_request_get_fd', 'blink.c:5'],
    ]);
  });

  it('reads g++ {aka struct} members, C undeclared identifiers and C++ members of a namespace', () => {
    const text = [
      'x.cc:3:12: error: ‘AVCodecContext’ {aka ‘struct AVCodecContext’} has no member named ‘channels’',
      'y.c:9:5: error: ‘AV_CODEC_CAP_AUTO_THREADS’ undeclared (first use in this function); did you mean ‘AV_CODEC_CAP_OTHER_THREADS’?',
      "z.cpp:40:20: error: 'DEFAULT_KEYLENGTH' is not a member of 'CryptoPP::AES'",
      'w.c:1:1: error: ‘struct stat’ has no member named ‘st_atimespec’; did you mean ‘st_atim’?',
    ].join('\n');
    expect(apiUsesIn(text)).toEqual([
      { kind: 'member', of: 'AVCodecContext', symbol: 'channels', at: 'x.cc:3' },
      {
        kind: 'identifier',
        symbol: 'AV_CODEC_CAP_AUTO_THREADS',
        suggestion: 'AV_CODEC_CAP_OTHER_THREADS',
        at: 'y.c:9',
      },
      { kind: 'member', of: 'CryptoPP::AES', symbol: 'DEFAULT_KEYLENGTH', at: 'z.cpp:40' },
      { kind: 'member', of: 'stat', symbol: 'st_atimespec', suggestion: 'st_atim', at: 'w.c:1' },
    ]);
  });

  it('names each use once and reads nothing into other errors', () => {
    const twice = fixture('api-drift-ffmpeg-channel-layout.txt').repeat(2);
    expect(apiUsesIn(twice)).toHaveLength(3);
    expect(
      apiUsesIn("x.c:1:1: error: expected ‘;’ before ‘}’ token\nld: undefined reference to `foo'"),
    ).toEqual([]);
  });
});
