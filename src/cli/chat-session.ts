import { createInterface } from 'node:readline';
import type { Subscription } from 'rxjs';
import type { Agent, ApprovalRequest } from '../agent/index.ts';
import { renderEvent } from './render-event.ts';

/** Where the chat reads and writes, and what it talks to. */
export interface ChatSessionOptions {
  agent: Agent;
  sessionId?: string | undefined;
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream;
}

/**
 * The interactive loop: each line is a message; the reply streams as it comes; a tool call that
 * needs approval asks y/n. Ctrl-C during a reply stops it (unsubscribing aborts the model request
 * and the tools); Ctrl-C at the prompt, or Ctrl-D, ends the chat.
 * @returns a promise that resolves when the chat ends
 */
export function runChatSession(options: ChatSessionOptions): Promise<void> {
  const { agent, sessionId, output } = options;
  const write = (text: string) => void output.write(text);
  const rl = createInterface({ input: options.input, output, terminal: true, prompt: '> ' });
  let reply: Subscription | undefined;
  let answer: ((line: string) => void) | undefined;

  const approve = (request: ApprovalRequest) =>
    new Promise<boolean>((resolve) => {
      const { name, arguments: args } = request.toolCall;
      write(`? allow ${name}(${JSON.stringify(args)})? [y/N] `);
      answer = (line) => resolve(/^\s*y(es)?\s*$/i.test(line));
      request.signal.addEventListener('abort', () => resolve(false), { once: true });
    });

  const settle = (tail: string) => {
    reply = undefined;
    answer = undefined;
    write(tail);
    rl.prompt();
  };

  rl.on('line', (line) => {
    if (answer) {
      const respond = answer;
      answer = undefined;
      respond(line);
      return;
    }
    if (reply) return;
    const text = line.trim();
    if (text === '') return void rl.prompt();
    reply = agent.run(text, { approve, ...(sessionId === undefined ? {} : { sessionId }) }).subscribe({
      next: (event) => write(renderEvent(event)),
      error: (error: unknown) => settle(`\nerror: ${oneLine(error)}\n`),
      complete: () => settle('\n'),
    });
  });
  rl.on('SIGINT', () => {
    if (!reply) return void rl.close();
    reply.unsubscribe();
    settle('\n[stopped]\n');
  });
  return new Promise((resolve) => {
    rl.on('close', () => {
      reply?.unsubscribe();
      write('\n');
      resolve();
    });
    rl.prompt();
  });
}

/** An error's message on one line. */
export function oneLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).replace(/\s+/g, ' ').trim();
}
