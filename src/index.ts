export * from './agent/index.ts';
// The agent's ApprovalRequest (step, session) is the public one; the registry's is its subset.
export type { ApprovalRequest } from './agent/index.ts';
export * from './core/index.ts';
export * from './models/index.ts';
export * from './operators/index.ts';
export * from './security/index.ts';
export * from './sessions/index.ts';
export * from './tools/index.ts';
export { type ToolMethodOptions, tool, toolsFrom } from './tools/tools-from.ts';
