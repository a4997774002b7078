import { createInterface } from 'node:readline';
import { interval, type Subscription } from 'rxjs';
import type { Agent, AgentEvent, ApprovalRequest } from '../agent/index.ts';
import { assistant, user } from '../core/index.ts';
import { gatedOutput } from './gated-output.ts';
import { renderEvent } from './render-event.ts';
import { terminalText } from './terminal-text.ts';
import { wordWrap } from './word-wrap.ts';

/** Where the chat reads and writes, and what it talks to. */
export interface ChatSessionOptions {
  agent: Agent;
  /** The session the conversation is kept in (the agent's `sessions` store). */
  sessionId?: string | undefined;
  input: NodeJS.ReadableStream & { isTTY?: boolean };
  output: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  /** A person at a terminal (prompts, echo, Ctrl-C): @default input and output are both TTYs */
  interactive?: boolean;
  /** How often a line tells which tools still run (at a terminal). @default 5_000 */
  progressMs?: number;
}

/** How a chat ended: the input ended (Ctrl-D, end of a pipe), or Ctrl-C on an empty prompt. */
export type ChatEnd = 'eof' | 'interrupt';

/**
 * The chat loop: each line is a message, sent in order; the reply streams as it comes; a tool call
 * that needs approval asks y/n (answered by the next line). Lines typed while a reply streams wait
 * their turn (their echo is held back until the reply ends). Ctrl-C during a reply stops it and
 * keeps the message (and what was said of the reply) in the session; Ctrl-C on a half-typed line
 * clears it; on an empty line it quits. A pasted block of lines is one message, sent with Enter. Piped input: no prompts, every reply waits its turn, and
 * the chat ends after the last one.
 * @returns how the chat ended
 */
export function runChatSession(options: ChatSessionOptions): Promise<ChatEnd> {
  const { agent, sessionId, output } = options;
  const interactive = options.interactive ?? Boolean(options.input.isTTY && output.isTTY);
  /** A person types the input (`rxagent chat | tee log` included), rather than a pipe giving it. */
  const typed = interactive || Boolean(options.input.isTTY);
  /** The reader of the output went away (`rxagent chat | head`): nothing more is written. */
  let gone = false;
  // Everything written holds what models, tools and servers said: no control characters.
  const write = (text: string) => {
    if (!gone) output.write(terminalText(text));
  };
  // Wraps whenever a person reads the output (piped input too), at the width the terminal has now:
  // a person may resize its window during the chat.
  const wrap = wordWrap(output.isTTY ? () => output.columns : undefined);
  const echo = gatedOutput(output);
  const rl = createInterface({
    input: options.input,
    ...(interactive ? { output: echo } : {}),
    terminal: interactive,
    prompt: '> ',
  });
  const queue: string[] = [];
  /** The reply's tool calls that run now (not waiting for a person), since when. */
  const running = new Map<string, { name: string; since: number }>();
  let reply: { subscription: Subscription; text: string; said: string } | undefined;
  let answer: ((line: string | undefined) => void) | undefined;
  /** The approval question last asked. */
  let question = '';
  let closed = false;
  let end: ((how: ChatEnd) => void) | undefined;
  const ended = new Promise<ChatEnd>((resolve) => (end = resolve));
  const prompt = () => {
    if (interactive && !closed) rl.prompt(true);
  };

  const approve = (request: ApprovalRequest) =>
    new Promise<boolean>((resolve) => {
      question = `? allow ${request.toolCall.name}? [y/N] `;
      write(wrap.flush() + question);
      wrap.reset();
      const decide = (line: string | undefined) => {
        echo.muted = interactive && reply !== undefined;
        // A terminal has echoed what was typed; a pipe's answer is shown.
        if (!typed) write(`${line ?? ''}\n`);
        const approved = line !== undefined && /^\s*y(es)?\s*$/i.test(line);
        if (approved) running.set(request.toolCall.id, { name: request.toolCall.name, since: Date.now() });
        resolve(approved);
      };
      // Piped input: the next line answers. Typed at a terminal (its output piped or not), only a
      // line typed after the question does: one typed ahead is the person's next message.
      const queued = typed ? undefined : queue.shift();
      if (queued !== undefined || closed) return decide(queued);
      echo.muted = false;
      answer = decide;
      request.signal.addEventListener('abort', () => resolve(false), { once: true });
    });

  const next = () => {
    if (reply) return;
    for (let line = queue.shift(); line !== undefined; line = queue.shift()) {
      const text = line.trim();
      if (text !== '') return void send(text);
    }
    if (closed) return finish('eof');
    prompt();
  };

  /** Whether the next line sent was typed during a reply (so it was not echoed). */
  let queuedEcho = false;
  const send = (text: string) => {
    if (interactive && queuedEcho) write(`> ${text}\n`);
    queuedEcho = false;
    echo.muted = interactive;
    const current = { subscription: undefined as unknown as Subscription, text, said: '' };
    reply = current;
    current.subscription = agent
      .run(text, { approve, ...(sessionId === undefined ? {} : { sessionId }) })
      .subscribe({
        next: (event) => {
          if (event.type === 'text-delta') current.said += event.text;
          track(event);
          write(wrap(renderEvent(event)));
        },
        error: (error: unknown) => settle(`\nerror: ${oneLine(error)}\n`),
        complete: () => settle('\n'),
      });
    if (interactive) current.subscription.add(interval(options.progressMs ?? 5000).subscribe(progress));
  };

  const track = (event: AgentEvent) => {
    if (event.type === 'tool-calls-ready')
      for (const call of event.toolCalls) running.set(call.id, { name: call.name, since: Date.now() });
    if (event.type === 'approval-requested' || event.type === 'tool-result')
      running.delete(event.toolCall.id);
  };

  /** A line for tools that run long (MCP servers, builds), so a quiet terminal is not a hung one. */
  const progress = () => {
    if (answer || running.size === 0) return;
    const calls = [...running.values()];
    const seconds = Math.round((Date.now() - Math.min(...calls.map((call) => call.since))) / 1000);
    write(`${wrap.flush()}  … ${calls.map((call) => call.name).join(', ')} running (${seconds} s)\n`);
    wrap.reset();
  };

  const settle = (tail: string) => {
    reply = undefined;
    running.clear();
    answer = undefined;
    echo.muted = false;
    write(wrap.flush() + tail);
    wrap.reset();
    queuedEcho = queue.length > 0;
    next();
  };

  /** Empties readline's line (as Ctrl-E Ctrl-U would), redrawing it unless the echo is muted. */
  const clearLine = () => {
    rl.write(null, { ctrl: true, name: 'e' });
    rl.write(null, { ctrl: true, name: 'u' });
  };

  /** Stops the reply; the message and what was said stay in the session (a chat keeps its turns). */
  const stop = async () => {
    if (answer) {
      // A half-typed answer to the question goes with it (not onto the next prompt as a message).
      echo.muted = true;
      clearLine();
    }
    const stopped = reply!;
    stopped.subscription.unsubscribe();
    reply = undefined;
    running.clear();
    const sessions = agent.options.sessions;
    if (sessions && sessionId !== undefined) {
      const said = stopped.said.trim();
      const kept = [
        user(stopped.text),
        ...(said === '' ? [] : [assistant(said, undefined, { stopped: true })]),
      ];
      await sessions.append(sessionId, kept).catch((error: unknown) => write(`error: ${oneLine(error)}\n`));
    }
    settle('\n[stopped]\n');
  };

  const finish = (how: ChatEnd) => {
    if (!closed) {
      closed = true;
      rl.close();
    }
    write(interactive ? '\n' : '');
    end?.(how);
    end = undefined;
  };

  // A closed pipe is not a crash: the reply stops (its request is aborted) and the chat ends.
  const readerGone = () => {
    if (gone) return;
    gone = true;
    queue.length = 0;
    reply?.subscription.unsubscribe();
    reply = undefined;
    finish('eof');
  };
  output.on('error', readerGone);
  void ended.then(() => output.off('error', readerGone));

  // A pasted block is one message: the terminal marks pastes (bracketed paste mode), its lines are
  // held, and Enter sends them with the line it ends.
  let pasting = false;
  let pasted: string[] = [];
  const onKeypress = (_text: string | undefined, key: { name?: string } | undefined) => {
    if (key?.name === 'paste-start') pasting = true;
    if (key?.name === 'paste-end') pasting = false;
  };
  if (interactive) {
    output.write(BRACKETED_PASTE_ON);
    options.input.on('keypress', onKeypress);
    void ended.then(() => {
      options.input.off('keypress', onKeypress);
      if (!gone) output.write(BRACKETED_PASTE_OFF);
    });
  }

  rl.on('line', (line) => {
    // A pasted block is a message even at the question: only a typed line answers it.
    if (answer && !pasting && pasted.length === 0) {
      const respond = answer;
      answer = undefined;
      return respond(line);
    }
    if (pasting) {
      pasted.push(line);
      rl.setPrompt('… ');
      return prompt();
    }
    const message = [...pasted, line].join('\n');
    pasted = [];
    rl.setPrompt('> ');
    // The question still waits: it is asked again under the pasted block.
    if (answer) write(question);
    queue.push(message);
    next();
  });
  rl.on('SIGINT', () => {
    if (reply) return void stop();
    if (rl.line !== '' || pasted.length > 0) {
      // What was typed (or pasted) goes, as in a shell.
      pasted = [];
      rl.setPrompt('> ');
      clearLine();
      return;
    }
    finish('interrupt');
  });
  rl.on('close', () => {
    if (closed) return;
    closed = true;
    answer?.(undefined);
    answer = undefined;
    // A person who quits stops the reply; piped input waits for every reply.
    if (interactive && reply) {
      reply.subscription.unsubscribe();
      reply = undefined;
    }
    if (!reply) next();
  });
  prompt();
  return ended;
}

/** Asks the terminal to mark pasted text (`ESC [200~` … `ESC [201~`), and to stop. */
const BRACKETED_PASTE_ON = '\u001b[?2004h';
const BRACKETED_PASTE_OFF = '\u001b[?2004l';

/** An error's message on one line. */
export function oneLine(error: unknown): string {
  return terminalText((error instanceof Error ? error.message : String(error)).replace(/\s+/g, ' ')).trim();
}
