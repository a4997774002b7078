import { defineTool } from './define-tool.ts';
import type { JsonSchemaObject } from './json-schema.ts';
import type { InferSchemaOutput, StandardSchemaV1 } from '../core/index.ts';
import type { AnyTool, ToolContext, ToolDefinition, ToolExecuteResult } from './tool.ts';

/** What `@tool(...)` takes: a tool definition without `execute` (the method) and with an optional name. */
export type ToolMethodOptions<Input, Args> = Omit<
  ToolDefinition<Input, Args, unknown>,
  'name' | 'execute'
> & {
  /** @default the method's name in snake_case (`getWeather` → `get_weather`) */
  name?: string;
};

type ToolMethod<This, Args> = (this: This, args: Args, context: ToolContext) => ToolExecuteResult<unknown>;

// The decorated methods, with their options and names: read by `toolsFrom`.
const marks = new WeakMap<object, { name: string; options: ToolMethodOptions<unknown, never> }>();

const snakeCase = (name: string): string =>
  name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/[-\s]+/g, '_')
    .toLowerCase();

/**
 * Marks a method as a tool (a standard TC39 decorator; no `experimentalDecorators`). `toolsFrom`
 * turns the marked methods of an instance into tools bound to it. The arguments are validated
 * exactly as `defineTool` does before the method runs.
 * @example
 * class Weather {
 *   @tool({ description: 'Current weather for a city.', input: z.object({ city: z.string() }) })
 *   getWeather({ city }: { city: string }) { return { city, tempC: 18 }; }
 * }
 */
export function tool<S extends StandardSchemaV1>(
  options: ToolMethodOptions<S, InferSchemaOutput<S>>,
): <This>(
  method: ToolMethod<This, InferSchemaOutput<S>>,
  context: ClassMethodDecoratorContext<This, ToolMethod<This, InferSchemaOutput<S>>>,
) => void;
export function tool(
  options: ToolMethodOptions<JsonSchemaObject, Record<string, unknown>>,
): <This>(
  method: ToolMethod<This, Record<string, unknown>>,
  context: ClassMethodDecoratorContext<This, ToolMethod<This, Record<string, unknown>>>,
) => void;
export function tool(options: ToolMethodOptions<unknown, never>): unknown {
  return (method: object, context: ClassMethodDecoratorContext<never, never>) => {
    if (context.kind !== 'method' || context.private || context.static) {
      throw new TypeError('@tool marks public instance methods only');
    }
    const name = options.name ?? snakeCase(String(context.name));
    marks.set(method, { name, options });
  };
}

/**
 * The tools of an object: one per method marked with `@tool`, bound to `instance` (inherited methods
 * included; an override keeps its base method's mark). Throws what `defineTool` throws for a bad
 * name or schema.
 * @example registry.register(...toolsFrom(new Weather()))
 */
export function toolsFrom(instance: object): AnyTool[] {
  const tools: AnyTool[] = [];
  const seen = new Set<string>();
  for (let proto: unknown = Object.getPrototypeOf(instance); proto && proto !== Object.prototype;) {
    for (const key of Object.getOwnPropertyNames(proto)) {
      // The descriptor, not a read: a getter run with the prototype as `this` may throw or have effects.
      const own: unknown = Object.getOwnPropertyDescriptor(proto, key)?.value;
      const mark = typeof own === 'function' ? marks.get(own) : undefined;
      if (!mark || seen.has(key)) continue;
      seen.add(key);
      const method = Reflect.get(instance, key) as ToolMethod<object, unknown>;
      const definition = {
        ...mark.options,
        name: mark.name,
        execute: (args: unknown, context: ToolContext) => method.call(instance, args, context),
      } as ToolDefinition<JsonSchemaObject, Record<string, unknown>, unknown>;
      tools.push(defineTool(definition) as AnyTool);
    }
    proto = Object.getPrototypeOf(proto);
  }
  return tools;
}
