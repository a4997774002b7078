/**
 * The Gemini API (`generativelanguage.googleapis.com`, v1beta) wire format, as far as rxagent reads
 * or writes it. Stream types are lenient: every field optional, unknown fields ignored.
 */

/** One part of a content turn. */
export interface GeminiPart {
  text?: string;
  thought?: boolean;
  thoughtSignature?: string;
  inlineData?: { mimeType: string; data: string };
  fileData?: { mimeType: string; fileUri: string };
  functionCall?: { id?: string; name: string; args: Record<string, unknown> };
  functionResponse?: {
    id?: string;
    name: string;
    response: Record<string, unknown>;
    /** Media the function returned (multimodal function responses): inline bytes only. */
    parts?: { inlineData: { mimeType: string; data: string } }[];
  };
}

/** One turn of `contents`; the model's turns have role `model`. */
export interface GeminiContent {
  role: 'user' | 'model';
  parts: GeminiPart[];
}

/** A function the model may call; `parametersJsonSchema` is plain JSON Schema. */
export interface GeminiFunctionDeclaration {
  name: string;
  description: string;
  parametersJsonSchema?: Record<string, unknown>;
}

/** `thinkingConfig` of `generationConfig`. */
export interface GeminiThinkingConfig {
  thinkingBudget?: number;
  includeThoughts?: boolean;
}

/** `generationConfig` of a request. */
export interface GeminiGenerationConfig {
  temperature?: number;
  topP?: number;
  topK?: number;
  seed?: number;
  frequencyPenalty?: number;
  presencePenalty?: number;
  maxOutputTokens?: number;
  stopSequences?: string[];
  responseMimeType?: string;
  /** Plain JSON Schema (the API's own field beside the OpenAPI-subset `responseSchema`). */
  responseJsonSchema?: Record<string, unknown>;
  thinkingConfig?: GeminiThinkingConfig;
  [key: string]: unknown;
}

/** The body of `POST /models/{model}:streamGenerateContent`. */
export interface GeminiRequestBody {
  contents: GeminiContent[];
  systemInstruction?: { parts: { text: string }[] };
  tools?: { functionDeclarations: GeminiFunctionDeclaration[] }[];
  toolConfig?: { functionCallingConfig: { mode: 'AUTO' | 'ANY' | 'NONE'; allowedFunctionNames?: string[] } };
  generationConfig?: GeminiGenerationConfig;
  [key: string]: unknown;
}

/** A part as the stream sends it. */
export interface GeminiStreamPart {
  text?: string;
  thought?: boolean;
  thoughtSignature?: string;
  functionCall?: { id?: string; name?: string; args?: unknown };
}

/** `usageMetadata`: `promptTokenCount` includes cached tokens; thoughts are not in `candidatesTokenCount`. */
export interface GeminiUsage {
  promptTokenCount?: number;
  candidatesTokenCount?: number;
  thoughtsTokenCount?: number;
  cachedContentTokenCount?: number;
  /** Tokens that tool use (grounding, URL context, code execution) added to the prompt. */
  toolUsePromptTokenCount?: number;
  totalTokenCount?: number;
}

/** An error object, in an HTTP error body or inside the stream. */
export interface GeminiErrorObject {
  code?: number;
  message?: string;
  status?: string;
}

/** One decoded stream chunk (a `GenerateContentResponse`, or an error). */
export interface GeminiChunk {
  candidates?: {
    content?: { parts?: GeminiStreamPart[]; role?: string };
    finishReason?: string;
    index?: number;
  }[];
  usageMetadata?: GeminiUsage;
  promptFeedback?: { blockReason?: string };
  modelVersion?: string;
  responseId?: string;
  error?: GeminiErrorObject;
}
