import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { analyzeTree } from '../../analysis/index.ts';
import type { PortState } from '../state/PortState.ts';
import { portState } from './portStateFixture.ts';

/**
 * A port state after init for a small tree written to a temporary folder: the source folder, the
 * scripted analysis (alias table only) and its findings, as init stores them.
 */
export async function portStateForTree(
  files: Record<string, string>,
  overrides: Partial<PortState> = {},
): Promise<{ state: PortState; root: string }> {
  const root = await mkdtemp(join(tmpdir(), 'rvport-tree-'));
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), text);
  }
  const { findings, ...scripted } = analyzeTree(root, { name: 'pkg', contents: null });
  const state = portState({
    source: { spec: root, name: 'pkg', dir: root },
    scripted,
    findings,
    ...overrides,
  });
  return { state, root };
}
