import type { Command } from 'commander';
import { type ElfFacts, type VerifyReport, verifyPaths } from '../../verify/index.ts';
import type { CliContext } from '../CliContext.ts';
import { ExitCode } from '../exitCodes.ts';
import { UsageError } from '../UsageError.ts';

interface VerifyOptions {
  json?: boolean;
}

export function registerVerifyCommand(program: Command, ctx: CliContext): void {
  program
    .command('verify')
    .description('check that files or folders hold riscv64 ELF objects (reads the ELF headers itself)')
    .argument('<path...>', 'files or folders (folders are walked; archives are opened)')
    .option('--json', 'machine-readable result on stdout')
    .action(async (paths: string[], options: VerifyOptions) => {
      if (paths.length === 0) throw new UsageError('verify: give at least one file or folder');
      const report = await verifyPaths(paths);
      ctx.out(options.json ? `${JSON.stringify(report, null, 2)}\n` : formatReport(report));
      // a file that is not riscv64 is a failed check: exit 1 like any other failure
      ctx.exitCode = report.verdict === 'verified' ? ExitCode.Success : ExitCode.Failure;
    });
}

function describe(f: ElfFacts): string {
  if (f.kind === 'archive')
    return `ar archive, ${f.members?.length ?? 0} members${f.machine ? `, ${f.machine}` : ''}`;
  if (f.kind !== 'elf') return f.error ?? f.kind;
  const parts = [`${f.machine}`, `${f.bits}-bit`, f.endian === 'little' ? 'LSB' : 'MSB', f.type];
  if (f.pie) parts.push('PIE');
  if (f.abi) parts.push(`ABI ${f.abi}`);
  if (f.rvc !== null) parts.push(f.rvc ? 'RVC' : 'no RVC');
  if (f.linkage) parts.push(f.linkage);
  if (f.interpreter) parts.push(`interpreter ${f.interpreter}`);
  return parts.join(', ');
}

export function formatReport(report: VerifyReport): string {
  const lines: string[] = [];
  for (const f of report.files) {
    lines.push(`${f.path}: ${describe(f)}`);
    for (const m of f.members ?? []) lines.push(`  ${m.path}: ${describe(m)}`);
  }
  if (report.skipped > 0) lines.push(`(${report.skipped} other files skipped)`);
  if (report.links > 0) lines.push(`(${report.links} symbolic links not followed)`);
  lines.push(`${report.verdict === 'verified' ? 'VERIFIED' : 'NOT VERIFIED'}: ${report.reason}`);
  for (const reason of report.reasons.slice(1)) lines.push(`  also: ${reason}`);
  return `${lines.join('\n')}\n`;
}
