import { execFileSync } from 'node:child_process';

/** A program running in a detached tmux pane (a real pseudo-terminal), on a private tmux server. */
export interface TmuxPane {
  /** The private tmux server's name (`tmux -L <name>`). */
  name: string;
  /** Types keys (tmux send-keys syntax: 'C-c', 'Enter', or literal text with `literal`). */
  send(keys: string, options?: { literal?: boolean }): void;
  /** Resizes the terminal, as a person dragging its window would. */
  resize(columns: number, rows: number): void;
  /** Pastes `text` as a terminal does (bracketed, when the program asked for it). */
  paste(text: string): void;
  /** The pane's visible text and scrollback. */
  text(): string;
  /** Resolves when the pane's text matches; rejects with the text after `timeoutMs`. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<string>;
  kill(): void;
}

/** Starts `command` (a shell command line) in a new tmux session of `size` (160×50 by default). */
export function startTmux(name: string, command: string, size = { columns: 160, rows: 50 }): TmuxPane {
  const tmux = (...args: string[]) => execFileSync('tmux', ['-L', name, ...args], { encoding: 'utf8' });
  tmux('new-session', '-d', '-s', 'main', '-x', String(size.columns), '-y', String(size.rows), command);
  tmux('set-option', '-t', 'main', 'remain-on-exit', 'on');
  const text = () => tmux('capture-pane', '-t', 'main', '-p', '-S', '-500');
  return {
    name,
    send: (keys, options = {}) =>
      void tmux('send-keys', '-t', 'main', ...(options.literal ? ['-l'] : []), keys),
    resize(columns, rows) {
      tmux('resize-window', '-t', 'main', '-x', String(columns), '-y', String(rows));
    },
    paste(text) {
      tmux('set-buffer', '-b', 'paste', text);
      tmux('paste-buffer', '-p', '-d', '-b', 'paste', '-t', 'main');
    },
    text,
    async waitFor(pattern, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const current = text();
        if (pattern.test(current)) return current;
        if (Date.now() > deadline) throw new Error(`pane never matched ${pattern}:\n${current}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    kill() {
      try {
        tmux('kill-server');
      } catch {
        // Already gone.
      }
    },
  };
}
