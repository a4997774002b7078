import type { ArgumentsCheck } from './arguments-check.ts';
import type { OutputCheck } from './output-check.ts';
import type { AnyTool } from './tool.ts';

/** A tool in a registry (normalized to strict), with its compiled argument and result checks. */
export interface RegisteredTool {
  tool: AnyTool;
  arguments: ArgumentsCheck;
  /** For a tool with an `outputSchema`. */
  output?: OutputCheck | undefined;
}
