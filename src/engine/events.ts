/** What the engine reports while it runs, for logs and progress displays. */
export type EngineEvent =
  | { type: 'run:start'; workflowId: string; node: string; resumed: boolean }
  | { type: 'node:start'; workflowId: string; node: string; step: number; attempt: number }
  | { type: 'node:end'; workflowId: string; node: string; step: number; durationMs: number }
  | { type: 'node:retry'; workflowId: string; node: string; attempt: number; delayMs: number; reason: string }
  | { type: 'node:error'; workflowId: string; node: string; message: string; asData: boolean }
  | { type: 'transition'; workflowId: string; from: string; to: string }
  | { type: 'run:end'; workflowId: string; outcome: RunOutcome; message?: string }
  | { type: 'log'; workflowId: string; node: string; stream: 'stdout' | 'stderr'; text: string };

export type RunOutcome = 'completed' | 'failed' | 'interrupted' | 'already-completed';

export type EngineEventListener = (event: EngineEvent) => void;
