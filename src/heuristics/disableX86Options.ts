import { configureWithSwitches, offeredConfigureSwitches } from './configureSwitches.ts';
import type { RecoveryHeuristic } from './RecoveryHeuristic.ts';

const X86_TROUBLE =
  /unrecognized command[- ]line option [‘'`"]-m(sse|avx|mmx|3dnow|fpmath|arch=(i\d86|x86|pentium|core|k8|athlon))|(x|e|p|t|s|n|w|imm)mmintrin\.h|cpuid\.h|unrecognized opcode|invalid operands|unknown mnemonic|nasm: (command )?not found|yasm: (command )?not found/;
/** configure options that turn x86 assembly or SIMD off, in the order they are preferred. */
const OFF_SWITCHES = [
  '--disable-asm',
  '--disable-x86asm',
  '--disable-assembly',
  '--disable-nasm',
  '--disable-simd',
  '--disable-sse',
  '--disable-sse2',
  '--disable-mmx',
  '--disable-avx',
  '--disable-avx2',
];

/**
 * An x86 assembly or SIMD failure in a build whose configure offers a switch to turn those
 * parts off: add the switches to the configure command.
 */
export const disableX86Options: RecoveryHeuristic = {
  name: 'disable-x86-options',
  description: 'turn off the x86 assembly/SIMD options the build offers',
  match(ctx) {
    if (!X86_TROUBLE.test(ctx.failure.output)) return null;
    const offered = offeredConfigureSwitches(ctx, OFF_SWITCHES);
    return offered.length
      ? {
          key: offered.join(' '),
          reason: `x86-specific code fails and configure offers ${offered.join(', ')}`,
        }
      : null;
  },
  async apply(ctx, match) {
    return configureWithSwitches(ctx.plan, match.key, `configure with ${match.key}`);
  },
};
