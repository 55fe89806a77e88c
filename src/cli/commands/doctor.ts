import type { Command } from 'commander';
import { allPassed } from '../../doctor/DoctorCheck.ts';
import { doctorContext, runDoctor } from '../../doctor/doctorChecks.ts';
import { formatDoctor } from '../../doctor/formatDoctor.ts';
import type { CliContext } from '../CliContext.ts';
import { ExitCode } from '../exitCodes.ts';

interface DoctorOptions {
  json?: boolean;
  queue?: string;
}

export function registerDoctorCommand(program: Command, ctx: CliContext): void {
  program
    .command('doctor')
    .description(
      'check every host requirement of a port and say how to fix what is missing (changes nothing)',
    )
    .option('--queue <url>', 'also check the Redis server of `batch --queue` (default: RVPORT_QUEUE_URL)')
    .option('--json', 'machine-readable checks on stdout')
    .action(async (options: DoctorOptions) => {
      const checks = await runDoctor(
        doctorContext(process.env, options.queue ? { queueUrl: options.queue } : {}),
      );
      ctx.out(options.json ? `${JSON.stringify(checks, null, 2)}\n` : formatDoctor(checks));
      // warnings (limits that will not apply, an unreachable LLM) leave a port possible
      ctx.exitCode = allPassed(checks) ? ExitCode.Success : ExitCode.Failure;
    });
}
