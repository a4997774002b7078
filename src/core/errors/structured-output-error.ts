import type { StandardSchemaV1Issue } from '../standard-schema.ts';
import { RxAgentError } from './rx-agent-error.ts';

/**
 * A reply asked for as JSON (`responseFormat`) is not valid JSON, or does not match the Standard
 * Schema the request gave. `text` is the model's reply as it came, `issues` what was wrong.
 * @example if (StructuredOutputError.is(error)) console.log(error.text, error.issues)
 */
export class StructuredOutputError extends RxAgentError {
  static override readonly kind: string = 'StructuredOutputError';
  readonly text: string;
  readonly issues: readonly StandardSchemaV1Issue[];

  constructor(
    message: string,
    data: { text: string; issues: readonly StandardSchemaV1Issue[]; cause?: unknown },
  ) {
    super(message, 'structured_output', { cause: data.cause });
    this.text = data.text;
    this.issues = data.issues;
  }
}
