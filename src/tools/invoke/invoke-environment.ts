import type { SecurityPolicy } from '../../security/index.ts';
import type { ToolInvocationStore } from '../audit/tool-invocation-store.ts';
import type { RegisteredTool } from '../registered-tool.ts';

/** What one invocation needs from its registry. */
export interface InvokeEnvironment {
  resolve(name: string): RegisteredTool | undefined;
  policy: SecurityPolicy | undefined;
  audit: ToolInvocationStore | undefined;
  maxResultBytes: number;
  timeoutMs: number;
}
