import type { ContentPart } from '../../core/index.ts';
import type { InvokeOptions } from '../invoke-options.ts';
import type { InvokeEnvironment } from './invoke-environment.ts';
import { failureContent } from './model-content.ts';
import type { SettledCall } from './settled-call.ts';

type Content = string | readonly ContentPart[];

/**
 * Runs the policy's content filter over what the model will see: the text, or each text part of
 * content with media (media parts pass as they are). A filter that throws withholds the result: the
 * call becomes an `error` whose text says so.
 */
export async function filterContent(
  env: InvokeEnvironment,
  options: InvokeOptions,
  settled: SettledCall,
  content: Content,
): Promise<{ settled: SettledCall; content: Content }> {
  const policy = env.policy;
  if (!policy) return { settled, content };
  const context = {
    toolName: settled.tool?.name ?? settled.call.name,
    toolCallId: settled.call.id,
    actor: options.actor,
    status: settled.status,
  };
  const filter = (text: string) => policy.filterContent(text, context);
  try {
    if (typeof content === 'string') return { settled, content: await filter(content) };
    const parts: ContentPart[] = [];
    for (const part of content)
      parts.push(part.type === 'text' ? { type: 'text', text: await filter(part.text) } : part);
    return { settled, content: Object.freeze(parts) };
  } catch (cause) {
    const error = { message: 'The result was withheld by the content filter', cause };
    return { settled: { ...settled, status: 'error', error }, content: failureContent('error', error) };
  }
}
