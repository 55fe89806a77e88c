import type { BuildPlan } from '../plan/index.ts';
import { shellQuote } from '../process/shellQuote.ts';
import { mapCommands } from './planEdits.ts';
import type { HeuristicContext } from './RecoveryHeuristic.ts';
import { readTreeFile } from './readTreeFile.ts';

/** A plan command that runs make, which takes variables on its command line. */
export const MAKE_COMMAND = /^make(\s|$)/;
const MAKEFILES = ['GNUmakefile', 'makefile', 'Makefile'];

/** The makefile make reads first in the plan's folder, with its name. */
export async function firstMakefile(ctx: HeuristicContext): Promise<{ name: string; text: string } | null> {
  for (const name of MAKEFILES) {
    const text = await readTreeFile(ctx, name);
    if (text !== null) return { name, text };
  }
  return null;
}

/** Every make command of the plan with `settings` (NAME=value, quoted) on its command line. */
export function withMakeVariables(plan: BuildPlan, settings: readonly string[]): BuildPlan {
  return mapCommands(plan, (c) => (MAKE_COMMAND.test(c.trim()) ? `${c} ${settings.join(' ')}` : c));
}

/** `NAME = value` (or :=, ::=) of a makefile, not `?=` nor `+=`: it wins over the environment. */
function assigned(makefile: string, name: string): string | undefined {
  const found = new RegExp(`^(?:override[ \\t]+)?${name}[ \\t]*(?:::=|:=|=)[ \\t]*(.*?)[ \\t]*$`, 'm').exec(
    makefile,
  );
  return found?.[1];
}

/**
 * The compiler setting for make's command line that carries `flag` where the environment's flags
 * do not reach: a makefile that sets the flags variable itself (`CXXFLAGS = …`) or compiles with
 * another (`$(CXX) $(CFLAGS) -c …`). Undefined when the environment reaches, or when the makefile's
 * compiler is not GCC's own name (`CXX = $(PREFIX)g++` is; `CXX = clang++` is not taken over).
 */
export function compilerSettingFor(
  makefile: string,
  compiler: 'CC' | 'CXX',
  flag: string,
): string | undefined {
  const flags = compiler === 'CXX' ? 'CXXFLAGS' : 'CFLAGS';
  const reached = new RegExp(`\\$[({]${flags}[)}]`).test(makefile) && assigned(makefile, flags) === undefined;
  if (reached) return undefined;
  const gcc = compiler === 'CXX' ? 'g++' : 'gcc';
  const own = assigned(makefile, compiler);
  if (
    own !== undefined &&
    !new RegExp(`^(\\$[({][A-Za-z_]+[)}])?(${compiler === 'CXX' ? 'g\\+\\+|c\\+\\+' : 'gcc|cc'})$`).test(own)
  )
    return undefined;
  return `${compiler}=${shellQuote(`${gcc} ${flag}`)}`;
}
