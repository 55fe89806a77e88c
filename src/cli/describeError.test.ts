import { CommanderError } from 'commander';
import { describe, expect, it } from 'vitest';
import { PreflightError } from '../doctor/PreflightError.ts';
import { StateFileError, WorkflowLockedError } from '../engine/index.ts';
import { RvportError } from '../errors/index.ts';
import { LlmError } from '../llm/index.ts';
import { ProbeOutputError } from '../probe/parseProbeSections.ts';
import { SandboxError } from '../sandbox/index.ts';
import { SourceError } from '../sources/index.ts';
import { describeError } from './describeError.ts';
import { ExitCode } from './exitCodes.ts';
import { UsageError } from './UsageError.ts';

const running = (command?: string) => ({ command, aborted: false });

describe('describeError', () => {
  it('prints nothing for commander (it printed the help or the mistake) and keeps its exit', () => {
    expect(describeError(new CommanderError(0, 'commander.helpDisplayed', ''), running())).toEqual({
      message: null,
      exitCode: ExitCode.Success,
    });
    expect(describeError(new CommanderError(1, 'commander.unknownOption', 'x'), running())).toEqual({
      message: null,
      exitCode: ExitCode.Failure,
    });
  });

  it('says a usage error as it is, with its exit code', () => {
    expect(
      describeError(new UsageError('--resume and --restart exclude each other'), running('port')),
    ).toEqual({
      message: '--resume and --restart exclude each other',
      exitCode: ExitCode.Failure,
    });
    expect(describeError(new UsageError('later', { exitCode: 3 }), running()).exitCode).toBe(3);
  });

  it('gives a sandbox error its fix, one command a line', () => {
    const error = new SandboxError('host-not-ready', 'qemu is missing', {
      fix: 'apt install qemu\nrvport doctor',
    });
    expect(describeError(error, running('sandbox'))).toEqual({
      message: 'qemu is missing\nto fix it, run:\n  apt install qemu\n  rvport doctor',
      exitCode: ExitCode.Failure,
    });
  });

  it('reports a sandbox or probe failure after Ctrl+C as the interruption (exit 130)', () => {
    const interrupted = { command: 'port', aborted: true };
    for (const error of [new SandboxError('sandbox-failed', 'killed'), new ProbeOutputError('cut short')])
      expect(describeError(error, interrupted)).toEqual({
        message: 'interrupted',
        exitCode: ExitCode.Interrupted,
      });
  });

  it("adds what the command's user can do", () => {
    expect(describeError(new PreflightError([]), running('port')).message).toMatch(
      /not ready for a port[\s\S]*\(rvport doctor checks everything\)$/,
    );
    const corrupt = new StateFileError('/x/state.json', 'invalid JSON');
    expect(describeError(corrupt, running('port')).message).toMatch(
      /unusable: invalid JSON.*; rvport port --restart discards it$/,
    );
    expect(describeError(corrupt, running('workflow')).message).toBe(corrupt.message);
    expect(describeError(new WorkflowLockedError('wf', 42), running('workflow')).message).toMatch(
      /process 42/,
    );
    expect(describeError(new ProbeOutputError('no end marker'), running('probe')).message).toBe(
      'probe failed: no end marker',
    );
    expect(
      describeError(new LlmError('config-invalid', 'llm.json is not JSON'), running('port')).message,
    ).toBe('llm.json is not JSON');
  });

  it("prefixes replay's errors, and says a source it cannot have as such", () => {
    expect(describeError(new SourceError('acquire', 'HTTP 404'), running('replay'))).toEqual({
      message: 'replay: the source cannot be acquired: HTTP 404',
      exitCode: ExitCode.Failure,
    });
    expect(describeError(new SourceError('invalid', 'empty SOURCE'), running('analyze')).message).toBe(
      'empty SOURCE',
    );
  });

  it('shows anything else as unexpected, with its stack (a bug, not bad input)', () => {
    for (const error of [
      new Error('boom'),
      new RvportError('some-code', 'internal'),
      new LlmError('timeout', 'slow'),
    ]) {
      const { message, exitCode } = describeError(error, running('port'));
      expect(message).toMatch(/^unexpected error: \w*Error: .*\n\s+at /);
      expect(exitCode).toBe(ExitCode.Failure);
    }
    expect(describeError('a string', running())).toEqual({
      message: 'unexpected error: a string',
      exitCode: 1,
    });
  });
});
