import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CliContext } from '../CliContext.ts';
import { buildProgram } from '../main.ts';

const fx = (name: string) => join(import.meta.dirname, '..', '..', 'verify', 'fixtures', name);

async function run(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const ctx: CliContext = {
    exitCode: 0,
    signal: new AbortController().signal,
    out: (s) => {
      out += s;
    },
    err: (s) => {
      err += s;
    },
  };
  const argv = ['node', 'rvport', ...args];
  await (await buildProgram(ctx, argv)).parseAsync(argv);
  return { code: ctx.exitCode, out, err };
}

describe('rvport verify', () => {
  it('prints the JSON contract and exits 0 for riscv64 files', async () => {
    const { code, out } = await run(['verify', '--json', fx('riscv64-exe'), fx('riscv64-lib.a')]);
    expect(code).toBe(0);
    const report = JSON.parse(out);
    expect(report.verdict).toBe('verified');
    expect(typeof report.reason).toBe('string');
    expect(report.files[0]).toMatchObject({
      path: fx('riscv64-exe'),
      machine: 'riscv64',
      bits: 64,
      endian: 'little',
      type: 'executable',
      abi: 'lp64d',
      interpreter: '/lib/ld-linux-riscv64-lp64d.so.1',
    });
    expect(report.files[1].members).toHaveLength(2);
  });

  it('exits 1 with the reason for another machine', async () => {
    const { code, out } = await run(['verify', fx('x86_64.o')]);
    expect(code).toBe(1);
    expect(out).toMatch(/NOT VERIFIED: .*x86_64\.o is x86_64 64-bit, not riscv64/);
  });
});
