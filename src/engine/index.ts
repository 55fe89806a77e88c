// The graph engine's public API. It knows nothing about porting and has no dependencies.
export { type Clock, FakeClock, systemClock } from './clock.ts';
export { DEFAULT_MAX_STEPS, defineWorkflow, isWorkflow } from './defineWorkflow.ts';
export { END } from './END.ts';
export {
  EngineError,
  isEngineError,
  NodeFailedError,
  StateFileError,
  StepLimitError,
  TransitionError,
  WorkflowDefinitionError,
  WorkflowLockedError,
} from './errors.ts';
export type { EngineEvent, EngineEventListener, RunOutcome } from './events.ts';
export {
  type AgentClient,
  type AgentMessage,
  AgentNode,
  type AgentNodeOptions,
  type AgentReply,
  type AgentRequest,
  type AgentTool,
} from './nodes/AgentNode.ts';
export {
  COMMAND_OUTPUT_CAP,
  CommandNode,
  type CommandNodeOptions,
  type CommandResult,
} from './nodes/CommandNode.ts';
export { FunctionNode, type FunctionNodeOptions } from './nodes/FunctionNode.ts';
export {
  GitHubProjectNode,
  type GitHubProjectNodeOptions,
  type GitHubProjectResult,
} from './nodes/GitHubProjectNode.ts';
export {
  SlashCommandNode,
  type SlashCommandNodeOptions,
  type SlashCommandResult,
} from './nodes/SlashCommandNode.ts';
export { SubgraphNode, type SubgraphNodeOptions } from './nodes/SubgraphNode.ts';
export { resolveTransition } from './resolveTransition.ts';
export {
  DEFAULT_RETRY_POLICY,
  isRateLimitError,
  nextRetry,
  RATE_LIMIT_RULE,
  type RetryPolicy,
} from './retryPolicy.ts';
export { type RunOptions, type RunResult, resetWorkflow, runWorkflow } from './runWorkflow.ts';
export { applyUpdate, STATE_FORMAT_VERSION } from './state.ts';
export { DEFAULT_STATE_DIR, FileStateStore } from './stores/FileStateStore.ts';
export { MemoryStateStore } from './stores/MemoryStateStore.ts';
export type { StateStore } from './stores/StateStore.ts';
export { type LockAttempt, takeLockFile } from './stores/takeLockFile.ts';
export { type LockWait, type WaitForLockOptions, waitForLockFile } from './stores/waitForLockFile.ts';
export { toMermaid } from './toMermaid.ts';
export type * from './types.ts';
