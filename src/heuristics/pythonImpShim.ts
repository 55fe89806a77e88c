import { posix } from 'node:path';
import { withPrepareCommands } from './planEdits.ts';
import type { RecoveryHeuristic } from './RecoveryHeuristic.ts';

/** The parts of Python's removed `imp` module that old build tools (bundled waf) use. */
const IMP_SHIM = [
  '"""Compatibility shim for the imp module (removed in Python 3.12), written by rvport."""',
  'import importlib, importlib.util, sys, types',
  'def new_module(name):',
  '    return types.ModuleType(name)',
  'reload = importlib.reload',
  'def get_magic():',
  '    return importlib.util.MAGIC_NUMBER',
  'def get_suffixes():',
  '    import importlib.machinery as m',
  '    return [(s, "rb", 3) for s in m.EXTENSION_SUFFIXES] + [(s, "r", 1) for s in m.SOURCE_SUFFIXES] + [(s, "rb", 2) for s in m.BYTECODE_SUFFIXES]',
  'def load_source(name, path):',
  '    spec = importlib.util.spec_from_file_location(name, path)',
  '    module = importlib.util.module_from_spec(spec)',
  '    sys.modules[name] = module',
  '    spec.loader.exec_module(module)',
  '    return module',
].join('\n');

/**
 * The folder of the script whose import failed, inside the source tree: the traceback's first
 * frame (`File "/build/src/./waf", line 166, in <module>`), else the plan's folder. Python puts
 * a script's own folder first on its module path, so an `imp.py` there is found by every import.
 */
function scriptFolder(output: string, planDir: string, srcDir: string): string {
  const root = srcDir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const first = new RegExp(`File "(${root}/[^"\\n]+)", line \\d+, in <module>`).exec(output)?.[1];
  const rel = first ? posix.relative(srcDir, posix.dirname(posix.normalize(first))) : planDir;
  const clean = rel === '.' ? '' : rel;
  return /^[\w./+-]*$/.test(clean) && !clean.split('/').includes('..') ? clean : '';
}

/**
 * A build tool imports Python's `imp` module, gone since Python 3.12 (trixie has 3.13): a small
 * compatible `imp.py` in the folder of the script that imports it, written by the prepare phase
 * on every build from scratch (a plan may not set PYTHONPATH: it changes what every Python
 * program of the sandbox loads). Left alone where the tree has an imp.py of its own.
 */
export const pythonImpShim: RecoveryHeuristic = {
  name: 'python-imp-shim',
  description: "provide Python's removed imp module to old build tools (bundled waf)",
  match(ctx) {
    return /ModuleNotFoundError: No module named 'imp'/.test(ctx.failure.output)
      ? { key: 'imp', reason: "the build tool imports Python's removed imp module" }
      : null;
  },
  async apply(ctx) {
    const folder = scriptFolder(ctx.failure.output, ctx.plan.dir, ctx.srcDir);
    const target = `$RVPORT_SRC${folder ? `/${folder}` : ''}/imp.py`;
    const lines = IMP_SHIM.split('\n')
      .map((l) => `'${l.replace(/'/g, `'\\''`)}'`)
      .join(' ');
    const command = `[ -e "${target}" ] || printf '%s\\n' ${lines} > "${target}"`;
    return {
      applied: true,
      description: `added an imp compatibility module beside the script that imports it (${target.replace('$RVPORT_SRC', 'the source')})`,
      commands: [command],
      plan: withPrepareCommands(ctx.plan, [command]),
    };
  },
};
