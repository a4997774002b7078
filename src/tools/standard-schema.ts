// Standard Schema lives in core: requests (`responseFormat.schema`) and tools both accept it.
export {
  type InferSchemaOutput,
  isStandardSchema,
  type StandardJSONSchemaV1Converter,
  type StandardSchemaV1,
  type StandardSchemaV1Issue,
  type StandardSchemaV1Options,
  type StandardSchemaV1PathSegment,
  type StandardSchemaV1Props,
  type StandardSchemaV1Result,
} from '../core/standard-schema.ts';
