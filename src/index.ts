// The public API of the rvport package: the graph engine, for users' own workflows.

// Tools for AgentNode steps in users' workflows.
export { type SandboxCommandToolOptions, sandboxCommandTool } from './agentTools/sandboxCommandTool.ts';
export * from './engine/index.ts';
