import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readArArchive } from './readArArchive.ts';
import { readElf } from './readElf.ts';

const fixture = (name: string) => new Uint8Array(readFileSync(join(import.meta.dirname, 'fixtures', name)));

describe('readArArchive', () => {
  it('lists the members of a riscv64 static library, long names included', () => {
    const archive = readArArchive(fixture('riscv64-lib.a'));
    expect(archive.error).toBeNull();
    expect(archive.members.map((m) => m.name)).toEqual(['lib.o', 'a_member_with_a_long_name.o']);
    for (const m of archive.members) expect(readElf(m.data)).toMatchObject({ ok: true, machine: 'riscv64' });
  });

  it('reads BSD-style long names', () => {
    const name = 'bsd_style_long_member.o';
    const body = 'payload!';
    const header = `${`#1/${name.length}`.padEnd(16)}${'0'.padEnd(12)}${'0'.padEnd(6)}${'0'.padEnd(6)}${'644'.padEnd(8)}${String(name.length + body.length).padEnd(10)}\`\n`;
    const bytes = new TextEncoder().encode(`!<arch>\n${header}${name}${body}`);
    const archive = readArArchive(bytes);
    expect(archive.error).toBeNull();
    expect(archive.members).toHaveLength(1);
    expect(archive.members[0]?.name).toBe(name);
    expect(new TextDecoder().decode(archive.members[0]?.data)).toBe(body);
  });

  it('returns the members read so far and an error for a truncated archive', () => {
    const full = fixture('riscv64-lib.a');
    const archive = readArArchive(full.subarray(0, full.length - 100));
    expect(archive.error).toMatch(/truncated/);
    expect(archive.members.map((m) => m.name)).toEqual(['lib.o']);
  });

  it('never throws on garbage', () => {
    const bytes = new TextEncoder().encode(
      '!<arch>\nthis is not a member header at all, just text that goes on',
    );
    expect(readArArchive(bytes).error).toMatch(/malformed|truncated/);
    expect(readArArchive(new Uint8Array(3)).error).toMatch(/magic/);
  });
});

describe('readArArchive on thin archives', () => {
  it('lists members that are only paths', () => {
    const header = (name: string, size: number) =>
      `${name.padEnd(16)}${'0'.padEnd(12)}${'0'.padEnd(6)}${'0'.padEnd(6)}${'644'.padEnd(8)}${String(size).padEnd(10)}\`\n`;
    const bytes = new TextEncoder().encode(`!<thin>\n${header('lib.o/', 1234)}${header('other.o/', 99)}`);
    const archive = readArArchive(bytes);
    expect(archive).toMatchObject({ thin: true, error: null });
    expect(archive.members.map((m) => [m.name, m.data.length])).toEqual([
      ['lib.o', 0],
      ['other.o', 0],
    ]);
  });
});
