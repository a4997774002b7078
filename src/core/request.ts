import type { Message } from './messages.ts';

/** A tool as the model sees it. `parameters` is a JSON Schema object. */
export interface ToolSpec {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

/** Which tool the model may or must call. */
export type ToolChoice = 'auto' | 'none' | 'required' | { name: string };

/** One model turn's input. */
export interface ChatRequest {
  /** A string is one user message. */
  messages: string | readonly Message[];
  system?: string;
  tools?: readonly ToolSpec[];
  toolChoice?: ToolChoice;
  temperature?: number;
  maxOutputTokens?: number;
  stop?: string[];
  responseFormat?: { type: 'json'; schema?: object; name?: string };
  /** Passed through into the wire body; `emitToolCallDeltas: true` asks for `ToolCallDelta` events. */
  providerOptions?: Record<string, unknown>;
}
