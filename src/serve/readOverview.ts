import { entryOf, type OutputFolder, type PortFolder } from './OutputFolder.ts';
import { type EntryResultView, type PortStateView, portStateSchema } from './portStateSchema.ts';
import { type IsAlive, readBatchState, toBatchView } from './readBatch.ts';
import type { BatchView, OverviewView } from './ServeViews.ts';
import { toPortRow } from './toPortRow.ts';

export interface PortContext {
  port: PortFolder;
  state: PortStateView | null;
  result: EntryResultView | null;
  running: boolean;
}

/** Every port with its state and its batch's result, and every batch's view. */
export function readPorts(
  folder: OutputFolder,
  alive: IsAlive,
): { ports: PortContext[]; batches: BatchView[]; problems: string[] } {
  const layout = folder.layout();
  const problems = [...layout.problems];
  const batchOf = new Map<string, { results: Map<string, EntryResultView>; running: Set<string> }>();
  const batches: BatchView[] = [];
  for (const batch of layout.batches) {
    const state = readBatchState(folder, batch, alive, problems);
    const view = toBatchView(batch.key, batch, state);
    batches.push(view);
    const byName = new Map<string, EntryResultView>();
    for (const r of state.results.values()) byName.set(r.name ?? r.source, r);
    batchOf.set(batch.key, {
      results: byName,
      running: new Set(view.rows.filter((r) => r.verdict === 'running').map((r) => r.name)),
    });
  }
  const ports = layout.ports.map((port): PortContext => {
    const stateFile = entryOf(port.entries, 'state.json');
    const read = stateFile ? folder.readJson(`${port.key}/state.json`, portStateSchema, stateFile) : null;
    if (read?.problem) problems.push(read.problem);
    const batch = port.batch !== null ? batchOf.get(port.batch) : undefined;
    return {
      port,
      state: read?.value ?? null,
      result: batch?.results.get(port.name) ?? null,
      running: batch?.running.has(port.name) ?? false,
    };
  });
  return { ports, batches, problems };
}

/** The dashboard's first page: every port as a table row, and the batches. */
export function readOverview(folder: OutputFolder, alive: IsAlive, out: string): OverviewView {
  const { ports, batches, problems } = readPorts(folder, alive);
  return {
    out,
    ports: ports.map((p) =>
      toPortRow({
        key: p.port.key,
        name: p.port.name,
        batch: p.port.batch,
        state: p.state,
        result: p.result,
        running: p.running,
      }),
    ),
    batches: batches.map((b) => ({ key: b.key, running: b.running })),
    problems,
  };
}
