import { withEnv, withPrepareCommands } from './planEdits.ts';
import type { RecoveryHeuristic } from './RecoveryHeuristic.ts';

/** Where the compatibility module goes, inside the tree (so a rebuild recreates it). */
export const SHIM_DIR = '$RVPORT_SRC/.rvport-pyshim';

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
 * A build tool imports Python's `imp` module, gone since Python 3.12 (trixie has 3.13): put a
 * small compatible `imp` on PYTHONPATH for every command.
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
    const command = `mkdir -p "${SHIM_DIR}" && printf '%s\\n' ${IMP_SHIM.split('\n')
      .map((l) => `'${l.replace(/'/g, `'\\''`)}'`)
      .join(' ')} > "${SHIM_DIR}/imp.py"`;
    const plan = withEnv(withPrepareCommands(ctx.plan, [command]), 'PYTHONPATH', `/build/src/.rvport-pyshim`);
    return {
      applied: true,
      description: 'added an imp compatibility module on PYTHONPATH',
      commands: [command],
      plan,
    };
  },
};
