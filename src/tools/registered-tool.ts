import type { ToolCall } from '../core/index.ts';
import type { SecurityPolicy } from '../security/index.ts';
import type { ArgumentsValidator } from './arguments-validator.ts';
import type { ToolInvocationStore } from './audit/tool-invocation-store.ts';
import type { AnyTool, ToolInvocation } from './tool.ts';
import type { ToolOutcomeError, ToolOutcomeStatus } from './tool-outcome.ts';

/** A tool in a registry, with its compiled argument check. */
export interface RegisteredTool {
  tool: AnyTool;
  validator: ArgumentsValidator;
}

/** What one invocation needs from its registry. */
export interface InvokeEnvironment {
  resolve(name: string): RegisteredTool | undefined;
  policy: SecurityPolicy | undefined;
  audit: ToolInvocationStore | undefined;
  maxResultBytes: number;
  timeoutMs: number;
}

/** How far a call got, before the content filter, the audit and the outcome. */
export interface SettledCall {
  call: ToolCall;
  status: ToolOutcomeStatus;
  tool?: AnyTool;
  /** Set once the arguments were valid. */
  invocation?: ToolInvocation;
  result?: unknown;
  /** The result's text for the model, before the content filter and the cap. */
  text?: string;
  error?: ToolOutcomeError;
  /** What the model sees instead of `error.message`, when that may hold internals. */
  modelMessage?: string;
}
