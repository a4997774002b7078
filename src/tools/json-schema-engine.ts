import type { JsonSchemaDialect } from './json-schema.ts';
import type { ToolIssue } from './tool-issue.ts';

/** A tool's JSON Schema, compiled once at registration. */
export interface CompiledJsonSchema {
  /** The problems of `value`, for the model to correct; empty when it is valid. */
  validate(value: unknown): ToolIssue[];
  /** Forgets the compiled schema (on unregister). */
  release(): void;
}

/** What validates tool arguments against their JSON Schema: ajv (compiled code) or a code-free one. */
export interface JsonSchemaEngine {
  /** Compiles `schema`; throws an `Error` saying why when the schema is refused (strict mode). */
  compile(schema: Record<string, unknown>): CompiledJsonSchema;
}

/** The `formats` a registry asserts: a pattern or a predicate per format name. */
export type JsonSchemaFormats = Readonly<Record<string, RegExp | ((value: string) => boolean)>>;

/**
 * Makes the engine of one dialect. The package's default (`#json-schema-engine`) is ajv, except
 * where code generation is forbidden (the `workerd`/`worker` export conditions: Cloudflare
 * Workers), where it is `@cfworker/json-schema`; both give the same verdicts.
 */
export type JsonSchemaEngineFactory = (
  dialect: JsonSchemaDialect,
  formats: JsonSchemaFormats,
) => JsonSchemaEngine;
