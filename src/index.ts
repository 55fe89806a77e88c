// The public API of the rvport package: the graph engine, for users' own workflows.
export * from './engine/index.ts';
