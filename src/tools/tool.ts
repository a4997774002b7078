import type { Observable } from 'rxjs';
import type { Actor } from '../security/index.ts';
import type { JsonSchemaDialect, JsonSchemaObject } from './json-schema.ts';
import type { ContentPart, StandardSchemaV1 } from '../core/index.ts';
import type { ToolFailure } from './tool-failure.ts';
import type { ToolOrigin } from './tool-name.ts';

/** What `execute` receives besides the arguments. */
export interface ToolContext {
  /** Aborted when the call times out or the caller cancels it. */
  readonly signal: AbortSignal;
  /** Who asked for the call (from the caller, never from the model). */
  readonly actor: Actor | undefined;
  readonly toolCallId: string;
}

/** One call of a tool, as `authorize` and `persist` see it. */
export interface ToolInvocation<Args = Record<string, unknown>> {
  readonly toolCallId: string;
  readonly name: string;
  /** The validated arguments. */
  readonly arguments: Args;
  readonly actor: Actor | undefined;
}

/** What `execute` may return: a value, a Promise, or an Observable whose last value is the result. */
export type ToolExecuteResult<Result> = Result | PromiseLike<Result> | Observable<Result>;

/** Hooks and limits shared by a tool's definition and the tool itself. */
interface ToolBehaviour<Args, Result> {
  /** Runs the tool. Earlier values of a returned Observable are progress; the last one is the result. */
  execute(args: Args, context: ToolContext): ToolExecuteResult<Result>;
  /** Whether `actor` may make this call; refusing gives `permission_denied`. @default allows */
  authorize?(actor: Actor | undefined, invocation: ToolInvocation<Args>): boolean | PromiseLike<boolean>;
  /**
   * Whether a person must approve this call before `execute` runs: `true`, or a predicate over the
   * validated arguments (throwing counts as `true`). Asked after `authorize`; a declined call is
   * `rejected`. @default false
   */
  needsApproval?: boolean | ((args: Args, context: ToolContext) => boolean | PromiseLike<boolean>);
  /**
   * What the audit trail keeps of a call (redact here), a JSON value or a Promise of one; `null`
   * keeps no arguments and no result (the call's records are still written). A failed call with
   * valid arguments gets `result` `undefined` and its `failure`; the record then names only the
   * error's class and `code` (or the status), never its message, unless `persist` returns it. A
   * throw or a value that is not JSON keeps nothing and notes `persist failed` in the record.
   */
  persist?(invocation: ToolInvocation<Args>, result: Result | undefined, failure?: ToolFailure): unknown;
  /**
   * What the model sees of a result, when that is not its JSON text: a string, or parts holding
   * images, audio or other files (`{ type: 'image', data, mediaType }`, `{ type: 'file', data,
   * mediaType: 'audio/wav' }`). Text parts go through the content filter and the result cap; media
   * parts reach the model as media, in the tool message. A throw makes the call an `error`.
   * @default the result as text: a string as it is, anything else as JSON
   * @example toModelContent: (png) => [{ type: 'text', text: 'The chart:' }, { type: 'image', data: png, mediaType: 'image/png' }]
   */
  toModelContent?(result: Result): string | readonly ContentPart[];
  /** Aborts `execute` after this long. @default the registry's `timeoutMs` */
  timeoutMs?: number;
  /** Longest string argument, in UTF-8 bytes. @default the registry's `maxArgBytes` */
  maxArgBytes?: number;
  /**
   * Whether running a call twice has the same effect as running it once (a read, an upsert by key).
   * A durable run (`driveDurableRun`) whose worker stopped during `execute` runs such a call again;
   * any other call in doubt gets the `interrupted` outcome instead. @default false
   */
  idempotent?: boolean;
}

/** What `defineTool` takes. */
export interface ToolDefinition<Input, Args, Result> extends ToolBehaviour<Args, Result> {
  /** `^[a-z][a-z0-9_]*$` for local tools, at most 64 characters. */
  name: string;
  /** Sent to the model verbatim. */
  description: string;
  /** A Standard Schema validator (zod, valibot, arktype) or a JSON Schema object (draft-07 or 2020-12). */
  input: Input;
  /** JSON Schema for a Standard Schema validator that cannot describe itself (no Standard JSON Schema). */
  inputJsonSchema?: JsonSchemaObject;
  /** @default 'local' */
  origin?: ToolOrigin;
}

/** A tool, ready to register in a `ToolRegistry`. Create it with `defineTool`. */
export interface Tool<Args = Record<string, unknown>, Result = unknown> extends ToolBehaviour<Args, Result> {
  readonly name: string;
  readonly description: string;
  readonly origin: ToolOrigin;
  /** The strict JSON Schema sent to models and validated against (frozen). */
  readonly parameters: Readonly<JsonSchemaObject>;
  readonly dialect: JsonSchemaDialect;
  /** The Standard Schema validator run after the JSON Schema check, when the input was one. */
  readonly validator: StandardSchemaV1 | undefined;
}

/** Any tool, whatever its arguments and result. */
export type AnyTool = Tool<never, unknown>;
