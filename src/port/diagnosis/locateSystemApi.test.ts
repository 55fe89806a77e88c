import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runProcess } from '../../process/runProcess.ts';
import type { ApiUse } from './apiUsesIn.ts';
import { locateSystemApi, parseLookup } from './locateSystemApi.ts';

/** The lookup script run for real, by sh and grep, over folders the test writes. */
const sh = async (script: string) => {
  const r = await runProcess({ command: ['sh', '-c', script] });
  return { exitCode: r.exitCode, stdout: r.stdout };
};

function folders() {
  const base = mkdtempSync(join(tmpdir(), 'rvport-api-drift-'));
  const include = join(base, 'include');
  const tree = join(base, 'tree');
  mkdirSync(join(include, 'libavcodec'), { recursive: true });
  mkdirSync(tree);
  // the shape of FFmpeg 7's avcodec.h: a typedef'd struct without the old member, which a comment still names
  writeFileSync(
    join(include, 'libavcodec', 'avcodec.h'),
    [
      'typedef struct AVCodecContext {',
      '    int sample_rate;',
      '    /* - sample_rate, channel_layout, nb_samples (audio only) */',
      '    AVChannelLayout ch_layout;',
      '#if FF_API_TICKS_PER_FRAME',
      '    int ticks_per_frame;',
      '#endif',
      '} AVCodecContext;',
      'int avcodec_open2(AVCodecContext *avctx);',
    ].join('\n'),
  );
  writeFileSync(join(include, 'string.h'), 'void *memcpy(void *d, const void *s, unsigned long n);\n');
  return { include, tree };
}

const member = (symbol: string, suggestion?: string): ApiUse => ({
  kind: 'member',
  of: 'AVCodecContext',
  symbol,
  ...(suggestion ? { suggestion } : {}),
});

describe('locateSystemApi', () => {
  it('finds the system header of the type whose member is gone', async () => {
    const { include, tree } = folders();
    const drifts = await locateSystemApi([member('channel_layout', 'ch_layout')], tree, sh, include);
    expect(drifts).toEqual([
      { use: member('channel_layout', 'ch_layout'), header: join(include, 'libavcodec', 'avcodec.h') },
    ]);
  });

  it('tells a member kept behind a version condition', async () => {
    const { include, tree } = folders();
    const [drift] = await locateSystemApi([member('ticks_per_frame')], tree, sh, include);
    expect(drift?.guarded).toBe(true);
  });

  it("is no drift when the type is the project's own, or the function is declared (a missing #include)", async () => {
    const { include, tree } = folders();
    writeFileSync(join(tree, 'own.h'), 'struct AVCodecContext {\n  int x;\n};\n');
    expect(await locateSystemApi([member('channel_layout')], tree, sh, include)).toEqual([]);
    const missingInclude: ApiUse = { kind: 'identifier', symbol: 'memcpy', suggestion: 'avcodec_open2' };
    expect(await locateSystemApi([missingInclude], folders().tree, sh, include)).toEqual([]);
  });

  it("finds a removed function by the compiler's nearest name", async () => {
    const { include, tree } = folders();
    const use: ApiUse = { kind: 'function', symbol: 'avcodec_decode_audio4', suggestion: 'avcodec_open2' };
    expect(await locateSystemApi([use], tree, sh, include)).toEqual([
      { use, header: join(include, 'libavcodec', 'avcodec.h') },
    ]);
  });

  it('looks nothing up for a name it cannot quote safely, or without a type or nearest name', async () => {
    const ran: string[] = [];
    const run = async (script: string) => {
      ran.push(script);
      return { exitCode: 0, stdout: '' };
    };
    await locateSystemApi(
      [
        { kind: 'member', of: 'x$(reboot)', symbol: 'y' },
        { kind: 'function', symbol: 'f' },
      ],
      '/build',
      run,
    );
    expect(ran).toEqual([]);
  });

  it('takes the package and version dpkg gives, and refuses odd ones', () => {
    const use = member('channels');
    const out =
      'header=/usr/include/libavcodec/avcodec.h\npackage=libavcodec-dev\nversion=7:7.1.5-0+deb13u1\n';
    expect(parseLookup(use, out)).toEqual({
      use,
      header: '/usr/include/libavcodec/avcodec.h',
      package: 'libavcodec-dev',
      version: '7:7.1.5-0+deb13u1',
    });
    expect(parseLookup(use, 'header=/etc/passwd\n')).toBeNull();
    expect(parseLookup(use, 'header=/usr/include/a.h\npackage=`x`\n')).toEqual({
      use,
      header: '/usr/include/a.h',
    });
  });
});
