import { join } from 'node:path';
import type { WorkflowState } from '../../engine/index.ts';
import { FileStateStore, resetWorkflow } from '../../engine/index.ts';
import type { SourceSpec } from '../../sources/index.ts';
import type { PortState } from '../state/PortState.ts';
import type { ProgressEvent } from './ProgressEvent.ts';
import { portRunId } from './portRunId.ts';
import { staleCheckpoint } from './staleCheckpoint.ts';

/** The checkpoint of one package's port, as `runPort` finds it before anything else runs. */
export interface PortCheckpoint {
  runId: string;
  store: FileStateStore;
  /** The run stored for this package (completed or not), unless it was stale or discarded. */
  existing: WorkflowState<PortState> | undefined;
  /** Whether `existing` is an interrupted run this port continues. */
  resuming: boolean;
}

/**
 * Opens the checkpoint first: a port stopped late in finish may have written its cache entry
 * already, and must resume rather than be answered from the cache. `restart` discards it without
 * reading it (so a corrupt checkpoint can be discarded too); an interrupted run another rvport or
 * another state format wrote is discarded with a note.
 */
export async function openPortCheckpoint(
  spec: SourceSpec,
  home: string,
  restart: boolean,
  progress: (event: ProgressEvent) => void,
): Promise<PortCheckpoint> {
  const runId = portRunId(spec);
  const store = new FileStateStore(join(home, 'runs'));
  if (restart) await resetWorkflow(runId, { store });
  const loaded = restart ? undefined : ((await store.load(runId)) as WorkflowState<PortState> | undefined);
  const stale = loaded && loaded.status !== 'completed' ? staleCheckpoint(loaded.context) : null;
  if (stale) {
    progress({ type: 'note', message: `the interrupted port of ${spec.name} is started again: ${stale}` });
    await resetWorkflow(runId, { store });
  }
  const existing = stale ? undefined : loaded;
  return { runId, store, existing, resuming: !!existing && existing.status !== 'completed' };
}
