/**
 * Hints about a tool's behaviour for clients and people (MCP's `ToolAnnotations`): served over MCP
 * with the tool, never trusted as a guarantee (a hint from an untrusted server is only a hint).
 */
export interface ToolAnnotations {
  /** A name for people. */
  title?: string;
  /** It changes nothing in its environment. @default false */
  readOnlyHint?: boolean;
  /** A change it makes may destroy something (meaningful when not read-only). @default true */
  destructiveHint?: boolean;
  /** Calling it again with the same arguments has no further effect (when not read-only). @default false */
  idempotentHint?: boolean;
  /** It reaches an open world of entities (the web), not a closed one (a memory). @default true */
  openWorldHint?: boolean;
}

/** The boolean hints of {@link ToolAnnotations}, for code that reads them from an untyped object. */
export const TOOL_ANNOTATION_HINTS = [
  'readOnlyHint',
  'destructiveHint',
  'idempotentHint',
  'openWorldHint',
] as const;

/**
 * A frozen copy of `annotations` with its known fields only; throws a `TypeError` naming the tool
 * for a field of the wrong type.
 */
export function toolAnnotations(toolName: string, annotations: unknown): Readonly<ToolAnnotations> {
  if (typeof annotations !== 'object' || annotations === null)
    throw new TypeError(`Tool ${toolName}: annotations must be an object`);
  const copy: ToolAnnotations = {};
  const title: unknown = Reflect.get(annotations, 'title');
  if (title !== undefined) {
    if (typeof title !== 'string')
      throw new TypeError(`Tool ${toolName}: annotations.title must be a string`);
    copy.title = title;
  }
  for (const hint of TOOL_ANNOTATION_HINTS) {
    const value: unknown = Reflect.get(annotations, hint);
    if (value === undefined) continue;
    if (typeof value !== 'boolean')
      throw new TypeError(`Tool ${toolName}: annotations.${hint} must be a boolean`);
    copy[hint] = value;
  }
  return Object.freeze(copy);
}
