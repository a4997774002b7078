import type { ArgumentsCheck } from './arguments-check.ts';
import type { AnyTool } from './tool.ts';

/** A tool in a registry (normalized to strict), with its compiled argument check. */
export interface RegisteredTool {
  tool: AnyTool;
  arguments: ArgumentsCheck;
}
