// The port workflow's door: what the CLI, the batch runner and the benchmarks use of it — run a
// port, replay one, and the values they print (its request, result, state and progress events).
// Inside, one room each, and only this file at the top: run/ (runPort, its services, the sandbox
// choice, the checkpoint), graph/ (portGraph.ts lists every node; nodes/ and routes/ beside it),
// state/ (PortState and its vocabulary), steps/ (what the nodes do), outputs/ (what it writes),
// replay/, llm/, diagnosis/, differential/, patches/, testResults/. ARCHITECTURE.md draws it.

export { isReplayError } from './replay/ReplayError.ts';
export { replayPort } from './replay/replayPort.ts';
export type { RequestedMode } from './run/chooseSandboxMode.ts';
export type { ProgressEvent } from './run/ProgressEvent.ts';
export { DEFAULT_TEST_TIMEOUT_MS, type PortResult, runPort } from './run/runPort.ts';
export type { AuditEvent, ErrorRecord, PortState } from './state/PortState.ts';
