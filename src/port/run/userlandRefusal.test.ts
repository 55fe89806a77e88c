import { describe, expect, it } from 'vitest';
import { makeError } from '../graph/nodes/recordError.ts';
import { portState } from '../testing/portStateFixture.ts';
import { userlandRefusal } from './userlandRefusal.ts';

const accepted = { accepted: true, reason: 'ok' } as const;

describe('userlandRefusal', () => {
  it('redoes a build whose evidence was refused, or a build command that failed in the fast userland', () => {
    expect(
      userlandRefusal(
        portState({ userlandEvidence: { ...accepted, accepted: false, reason: 'printf differs' } } as never),
      ),
    ).toBe('printf differs');
    const failed = portState({
      buildStatus: 'ESCALATED',
      errors: [{ ...makeError({ node: 'build', output: 'a.c:1:1: error: x' }), category: 'COMPILATION' }],
    });
    expect(userlandRefusal(failed)).toBe('the port ended escalated in native-userland mode');
  });

  it("lets a compiler's error on a source file stand after a build whose evidence was accepted", () => {
    const compiled = (evidence: unknown, output: string) =>
      portState({
        buildStatus: 'ESCALATED',
        userlandEvidence: evidence,
        errors: [{ ...makeError({ node: 'build', output }), category: 'COMPILATION' }],
      } as never);
    const cpp =
      "make: Entering directory '/build/src'\nencrypt.cpp:42:41: error: no matching function for call to 'min'";
    expect(userlandRefusal(compiled(accepted, cpp))).toBeUndefined();
    // without evidence, or with a failure the userland may have made, it is redone
    expect(userlandRefusal(compiled(undefined, cpp))).toBe(
      'the port ended escalated in native-userland mode',
    );
    expect(userlandRefusal(compiled(accepted, 'configure: error: cannot run test program'))).toBe(
      'the port ended escalated in native-userland mode',
    );
    expect(userlandRefusal(compiled({ ...accepted, accepted: false, reason: 'sed differs' }, cpp))).toBe(
      'sed differs',
    );
  });

  it('lets stand what no build command made: the cost cap, the source, a sandbox limit', () => {
    const capped = portState({ buildStatus: 'ESCALATED' });
    capped.llm = { ...capped.llm, costUsd: capped.options.costCapUsd + 1 };
    expect(userlandRefusal(capped)).toBeUndefined();
    const source = portState({
      buildStatus: 'ESCALATED',
      errors: [
        {
          ...makeError({ node: 'build', output: 'required file x/Makefile.in not found' }),
          category: 'SOURCE_UNAVAILABLE',
        },
      ],
    });
    expect(userlandRefusal(source)).toBeUndefined();
    const memory = portState({
      buildStatus: 'ESCALATED',
      errors: [{ ...makeError({ node: 'build', output: 'killed' }), category: 'MEMORY_LIMIT' }],
    });
    expect(userlandRefusal(memory)).toBeUndefined();
  });

  it('needs evidence for a verified build', () => {
    const verified = portState({ verification: { verdict: 'verified', reason: '1 riscv64 ELF' } } as never);
    expect(userlandRefusal(verified)).toBe('the build left no evidence');
  });
});
