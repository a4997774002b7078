import type { InvokeOptions } from '../invoke-options.ts';
import type { InvokeEnvironment } from './invoke-environment.ts';
import { failureContent } from './model-content.ts';
import type { SettledCall } from './settled-call.ts';

/**
 * Runs the policy's content filter over what the model will see. A filter that throws withholds the
 * result: the call becomes an `error` whose text says so.
 */
export async function filterContent(
  env: InvokeEnvironment,
  options: InvokeOptions,
  settled: SettledCall,
  text: string,
): Promise<{ settled: SettledCall; text: string }> {
  if (!env.policy) return { settled, text };
  try {
    const filtered = await env.policy.filterContent(text, {
      toolName: settled.tool?.name ?? settled.call.name,
      toolCallId: settled.call.id,
      actor: options.actor,
      status: settled.status,
    });
    return { settled, text: filtered };
  } catch (cause) {
    const error = { message: 'The result was withheld by the content filter', cause };
    return { settled: { ...settled, status: 'error', error }, text: failureContent('error', error) };
  }
}
