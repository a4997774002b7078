import { z } from 'zod';

const uiPart = z.looseObject({ type: z.string() });

const uiMessage = z.looseObject({
  id: z.string(),
  role: z.enum(['system', 'user', 'assistant']),
  parts: z.array(uiPart),
});

const chatRequestBody = z.looseObject({
  id: z.string().min(1).max(512),
  messages: z.array(uiMessage).min(1),
  trigger: z.enum(['submit-message', 'regenerate-message']).optional(),
  messageId: z.string().optional(),
});

/** One message of a `useChat` request (the AI SDK's `UIMessage`), as far as the server reads it. */
export type ChatUIMessage = z.infer<typeof uiMessage>;

/** A part of a {@link ChatUIMessage}: its `type` and whatever fields that type has. */
export type ChatUIPart = z.infer<typeof uiPart>;

/** The body `useChat` POSTs: the chat's id, its messages, and why it sends them. */
export type ChatRequestBody = z.infer<typeof chatRequestBody>;

/** The body of a `useChat` POST, or `undefined` when it is not one. */
export function parseChatRequestBody(value: unknown): ChatRequestBody | undefined {
  const parsed = chatRequestBody.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}
