// Standard Schema v1 and Standard JSON Schema v1 (https://standardschema.dev), copied as flat types so
// that rxagent's public types depend on no validation library.

/** Options a Standard Schema validator accepts. */
export interface StandardSchemaV1Options {
  readonly libraryOptions?: Record<string, unknown> | undefined;
}

/** One path segment of a Standard Schema issue. */
export interface StandardSchemaV1PathSegment {
  readonly key: PropertyKey;
}

/** One validation issue. */
export interface StandardSchemaV1Issue {
  readonly message: string;
  readonly path?: ReadonlyArray<PropertyKey | StandardSchemaV1PathSegment> | undefined;
}

/** The result of a Standard Schema validation. */
export type StandardSchemaV1Result<Output> =
  | { readonly value: Output; readonly issues?: undefined }
  | { readonly issues: ReadonlyArray<StandardSchemaV1Issue> };

/** The converter of the Standard JSON Schema interface. */
export interface StandardJSONSchemaV1Converter {
  readonly input: (options: {
    readonly target: 'draft-2020-12' | 'draft-07' | 'openapi-3.0' | (string & {});
    readonly libraryOptions?: Record<string, unknown> | undefined;
  }) => Record<string, unknown>;
  readonly output: StandardJSONSchemaV1Converter['input'];
}

/** The `~standard` property of a Standard Schema. */
export interface StandardSchemaV1Props<Input = unknown, Output = Input> {
  readonly version: 1;
  readonly vendor: string;
  readonly validate: (
    value: unknown,
    options?: StandardSchemaV1Options | undefined,
  ) => StandardSchemaV1Result<Output> | Promise<StandardSchemaV1Result<Output>>;
  readonly types?: { readonly input: Input; readonly output: Output } | undefined;
  /** Present when the validator also implements Standard JSON Schema. */
  readonly jsonSchema?: StandardJSONSchemaV1Converter | undefined;
}

/** A validator implementing Standard Schema v1 (zod, valibot, arktype, …). */
export interface StandardSchemaV1<Input = unknown, Output = Input> {
  readonly '~standard': StandardSchemaV1Props<Input, Output>;
}

/** The validated type of a Standard Schema. */
export type InferSchemaOutput<S extends StandardSchemaV1> = NonNullable<S['~standard']['types']>['output'];

/** Whether `value` implements Standard Schema v1. */
export function isStandardSchema(value: unknown): value is StandardSchemaV1 {
  if ((typeof value !== 'object' && typeof value !== 'function') || value === null) return false;
  const props: unknown = Reflect.get(value, '~standard');
  return typeof props === 'object' && props !== null && typeof Reflect.get(props, 'validate') === 'function';
}
