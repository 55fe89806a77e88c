import { walkConfined } from '../fs/index.ts';
import { describe, type OutputFolder } from './OutputFolder.ts';
import type { PortStateView } from './portStateSchema.ts';
import type { IsAlive } from './readBatch.ts';
import { readPorts } from './readOverview.ts';
import { ServeError } from './ServeError.ts';
import type { DocumentView, FileView, PortDetailView, TimeSlice } from './ServeViews.ts';
import { toPortRow } from './toPortRow.ts';

/** The Markdown files of a port's page, in the order shown. */
export const PORT_DOCUMENTS = ['report.md', 'escalation.md', 'recipe.md', 'replay.md'] as const;
/** A document larger than this is not shown (rvport's own are tens of KiB). */
export const MAX_DOCUMENT_BYTES = 4 * 1024 * 1024;
/** Files listed under artifacts/ at most (a port copies out 50). */
export const MAX_LISTED_ARTIFACTS = 2_000;
export const ARTIFACTS_DIR = 'artifacts';
export const PATCHES_DIR = 'patches';

/** A port's page: its row, last error, documents, files, artifacts, times and logs. */
export function readPortDetail(folder: OutputFolder, alive: IsAlive, key: string): PortDetailView {
  const { ports, problems: all } = readPorts(folder, alive);
  const found = ports.find((p) => p.port.key === key);
  if (!found) throw new ServeError('not-found', `no port ${JSON.stringify(key)} in the output folder`);
  const problems = all.filter((p) => p.startsWith(`${key}/`));
  const { port, state } = found;
  const row = toPortRow({
    key,
    name: port.name,
    batch: port.batch,
    state,
    result: found.result,
    running: found.running,
  });
  const lastError = state?.errors.at(-1) ?? null;
  const documents: DocumentView[] = [];
  for (const name of PORT_DOCUMENTS) {
    if (!port.entries.some((e) => e.name === name)) continue;
    const text = folder.readText(`${key}/${name}`, MAX_DOCUMENT_BYTES);
    documents.push({ name, markdown: text.value, note: text.problem });
  }
  const { files, artifacts } = listPortFiles(folder, key, state, problems);
  return {
    row,
    source: state?.source
      ? { spec: state.source.spec, url: state.source.url ?? null, commit: state.source.commit ?? null }
      : null,
    status: state?.buildStatus ?? null,
    verification: state?.verification ? `${state.verification.verdict}: ${state.verification.reason}` : null,
    escalationReason: state?.escalationReason ?? null,
    lastError: lastError
      ? {
          category: lastError.category,
          severity: lastError.severity,
          phase: lastError.phase ?? null,
          command: lastError.command ?? null,
          errorLine: lastError.errorLine ?? null,
          message: lastError.message.slice(0, 20_000),
        }
      : null,
    documents,
    artifacts,
    files,
    nodeTimes: nodeTimes(state),
    phaseTimes: phaseTimes(state),
    logs: port.entries
      .filter((e) => e.type === 'file' && e.name.endsWith('.log'))
      .map((e) => ({ file: e.name, bytes: e.size })),
    problems,
  };
}

/**
 * The regular files of a port's folder: its own, patches/ and artifacts/ (one walk that never
 * follows a link: a link is neither listed nor served). Artifacts carry the SHA-256 and ELF facts
 * state.json recorded for the same path.
 */
export function listPortFiles(
  folder: OutputFolder,
  key: string,
  state: PortStateView | null,
  problems: string[],
): { files: FileView[]; artifacts: FileView[] } {
  const recorded = new Map((state?.artifacts ?? []).map((a) => [a.path, a]));
  const prefix = `${key}/`;
  let entries: ReturnType<typeof walkConfined>['entries'];
  try {
    const walked = walkConfined(folder.root, {
      from: key,
      maxEntries: MAX_LISTED_ARTIFACTS,
      maxDepth: 32,
      skipDir: (_name, path) => !isListedTree(path.slice(prefix.length)),
    });
    if (walked.truncated)
      problems.push(`${key}: more than ${MAX_LISTED_ARTIFACTS} entries; the rest is not listed`);
    entries = walked.entries;
  } catch (error) {
    problems.push(describe(error));
    return { files: [], artifacts: [] };
  }
  const files: FileView[] = [];
  const artifacts: FileView[] = [];
  for (const e of entries) {
    if (e.type !== 'file' || !e.path.startsWith(prefix)) continue;
    const path = e.path.slice(prefix.length);
    if (path.includes('/') && !isListedTree(path)) continue;
    if (path.startsWith(`${ARTIFACTS_DIR}/`)) {
      const a = recorded.get(path.slice(ARTIFACTS_DIR.length + 1));
      artifacts.push({
        path,
        size: e.size,
        sha256: a?.sha256 ?? null,
        facts: a
          ? [a.machine, a.bits ? `${a.bits}-bit` : null, a.type, a.role].filter(Boolean).join(' ')
          : null,
      });
    } else {
      files.push({ path, size: e.size, sha256: null, facts: null });
    }
  }
  return { files, artifacts };
}

function isListedTree(path: string): boolean {
  return (
    path === ARTIFACTS_DIR ||
    path === PATCHES_DIR ||
    path.startsWith(`${ARTIFACTS_DIR}/`) ||
    path.startsWith(`${PATCHES_DIR}/`)
  );
}

/** Milliseconds per node of the port graph, in the order the port ran them. */
export function nodeTimes(state: PortStateView | null): TimeSlice[] {
  return Object.entries(state?.timings ?? {})
    .filter(([name]) => name !== 'total')
    .map(([name, ms]) => ({ name, ms }));
}

/** Milliseconds per build phase (packages, configure, build, test, …), summed over its commands. */
export function phaseTimes(state: PortStateView | null): TimeSlice[] {
  const phases = new Map<string, number>();
  for (const c of state?.executed ?? []) phases.set(c.phase, (phases.get(c.phase) ?? 0) + c.durationMs);
  return [...phases].map(([name, ms]) => ({ name, ms }));
}
