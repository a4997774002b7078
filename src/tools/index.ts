export {
  type AuditChainHead,
  type AuditChainVerification,
  type AuditKey,
  type AuditLogEntry,
  auditRecordOf,
  type ChainedAuditRecord,
  chainAuditRecord,
  GENESIS_HEAD,
  verifyAuditChain,
  verifyAuditEntry,
} from './audit/audit-chain.ts';
export { type FileAuditStore, type FileAuditStoreOptions, fileAuditStore } from './audit/file-audit-store.ts';
export {
  type MemoryAuditStore,
  type MemoryAuditStoreOptions,
  memoryAuditStore,
} from './audit/memory-audit-store.ts';
export {
  type AuditQuery,
  filterRecords,
  type ToolCallOutcomeRecord,
  type ToolCallStartedRecord,
  type ToolInvocationRecord,
  type ToolInvocationStore,
} from './audit/tool-invocation-store.ts';
export {
  type AuditLogVerification,
  type VerifyAuditLogOptions,
  verifyAuditLog,
} from './audit/verify-audit-log.ts';
export { contentSummary } from './content-summary.ts';
export { defineTool } from './define-tool.ts';
export { interruptedOutcome } from './interrupted-outcome.ts';
export { canonicalArgumentName, IDENTITY_ARGUMENT_NAMES } from './identity-names.ts';
export type { ApprovalDecision, ApprovalRequest, InvokeOptions } from './invoke-options.ts';
export type { JsonSchemaDialect, JsonSchemaObject } from './json-schema.ts';
export type {
  AnyTool,
  Tool,
  ToolContext,
  ToolDefinition,
  ToolExecuteResult,
  ToolInvocation,
} from './tool.ts';
export type { ToolAnnotations } from './tool-annotations.ts';
export type { ToolFailure } from './tool-failure.ts';
export type { ToolInvocationEvent } from './tool-invocation-event.ts';
export { validatorJsonSchema } from './validator-json-schema.ts';
export type { ToolIssue } from './tool-issue.ts';
export { strictTool, type ToolLike } from './strict-tool.ts';
export { MAX_TOOL_NAME_LENGTH, type ToolOrigin } from './tool-name.ts';
export {
  TOOL_OUTCOME_STATUSES,
  type ToolOutcome,
  type ToolOutcomeError,
  type ToolOutcomeStatus,
} from './tool-outcome.ts';
export { type InvokeAllOptions, ToolRegistry, type ToolRegistryOptions } from './tool-registry.ts';
