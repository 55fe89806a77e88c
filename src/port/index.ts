// The port workflow's door: what the CLI, the batch runner and the benchmarks use of it — run a
// port, replay one, and the values they print (its request, result, state and progress events).
// Inside: the graph (portGraph.ts, nodes/, routes/), its state (PortState.ts), the steps the
// nodes take, the outputs it writes (outputs/), the replay (replay/). ARCHITECTURE.md draws it.

export { isReplayError } from './replay/ReplayError.ts';
export { replayPort } from './replay/replayPort.ts';
export type { RequestedMode } from './run/chooseSandboxMode.ts';
export type { ProgressEvent } from './run/ProgressEvent.ts';
export { DEFAULT_TEST_TIMEOUT_MS, type PortResult, runPort } from './run/runPort.ts';
export type { AuditEvent, ErrorRecord, PortState } from './state/PortState.ts';
