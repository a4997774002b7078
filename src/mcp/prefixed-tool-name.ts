import { createHash } from 'node:crypto';
import { MAX_TOOL_NAME_LENGTH } from '../tools/index.ts';

/**
 * `prefix + name`, kept within `MAX_TOOL_NAME_LENGTH`: a longer name is cut and ends with 8 hex
 * characters of its SHA-256, so two long names stay distinct and the same name always maps the same.
 * Characters MCP names allow but the tool-name rule does not are replaced with `_`.
 * @example prefixedToolName('fs__', 'read_file') // 'fs__read_file'
 */
export function prefixedToolName(prefix: string, name: string): string {
  const full = `${prefix}${name}`.replace(/[^A-Za-z0-9_.-]/g, '_');
  if (full.length <= MAX_TOOL_NAME_LENGTH) return full;
  const hash = createHash('sha256').update(`${prefix}${name}`).digest('hex').slice(0, 8);
  return `${full.slice(0, MAX_TOOL_NAME_LENGTH - 9)}_${hash}`;
}
