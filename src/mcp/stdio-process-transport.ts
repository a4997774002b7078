import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import type { Readable } from 'node:stream';
import {
  type JSONRPCMessage,
  ReadBuffer,
  serializeMessage,
  type Transport,
} from '@modelcontextprotocol/client';
import { McpError } from '../core/index.ts';
import { MAX_MESSAGE_BYTES } from './limited-fetch.ts';
import { signalGroup, signalProcesses, trackGroup } from './live-process-groups.ts';
import { descendantsOf } from './process-descendants.ts';
import { serverEnvironment } from './server-environment.ts';
import { StderrBuffer } from './stderr-buffer.ts';

/** How to start a stdio MCP server. */
export interface StdioProcessOptions {
  command: string;
  args?: readonly string[];
  /** Added to the allowlisted host environment (`PATH`, `HOME`, locale, …; see `inheritEnv`). */
  env?: Readonly<Record<string, string>>;
  /**
   * More of the host's environment: `true` for all of it (API keys included), or the names to pass.
   * @default false
   */
  inheritEnv?: boolean | readonly string[];
  cwd?: string;
  /** Bytes of the server's stderr kept for `stderr` and error messages. @default 65_536 */
  stderrBytes?: number;
  /** Called with each line the server writes to stderr (it is never read as protocol). */
  onStderr?: (line: string) => void;
  /**
   * Bytes one message (one line) may take; past it the line is dropped, the error reported and the
   * server ended (a crash for the restart policy). @default 10_485_760 (10 MiB, as the SDK's own stdio transport)
   */
  maxMessageBytes?: number;
  /** Time between SIGTERM and SIGKILL on close. @default 2_000 */
  killGraceMs?: number;
}

/**
 * An MCP `Transport` over a child process's stdin/stdout, spawned as the leader of its own process
 * group so `close()` ends the whole group (an `npx` wrapper and the real server alike) and waits
 * until the child has exited: no zombie, no orphaned grandchild (the SDK's own stdio transport
 * signals only the child, typescript-sdk#2023). A leader that dies takes its group with it, and the
 * host's exit ends every group still running.
 */
export class StdioProcessTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  readonly #options: StdioProcessOptions;
  readonly #server: string;
  readonly #readBuffer: ReadBuffer;
  readonly #stderr: StderrBuffer;
  #child: ChildProcess | undefined;
  #exited: Promise<void> = Promise.resolve();
  #exit: string | undefined;
  #closing = false;

  constructor(server: string, options: StdioProcessOptions) {
    this.#server = server;
    this.#options = options;
    this.#readBuffer = new ReadBuffer({ maxBufferSize: options.maxMessageBytes ?? MAX_MESSAGE_BYTES });
    this.#stderr = new StderrBuffer(options.stderrBytes ?? 65_536, options.onStderr);
  }

  /** The child's pid while it runs. */
  get pid(): number | undefined {
    return this.#child?.pid;
  }

  /**
   * The child's stderr while it runs (read here; never protocol). Its presence also tells the SDK's
   * version negotiation this is a stdio transport, whose probe may time out or close on a 2025-era
   * server and fall back to `initialize`, rather than an HTTP one, where that is a hard error.
   */
  get stderr(): Readable | null {
    return this.#child?.stderr ?? null;
  }

  /** How the process ended on its own (`exit code 3`, `signal SIGSEGV`), if it did before `close()`. */
  get exit(): string | undefined {
    return this.#exit;
  }

  /** The newest bytes the server wrote to stderr, as text. */
  get stderrText(): string {
    return this.#stderr.text();
  }

  start(): Promise<void> {
    if (this.#child)
      throw new McpError(`${this.#server}: transport already started`, this.#fail('connect_failed'));
    const { command, args = [], env, cwd, inheritEnv } = this.#options;
    const child = spawn(command, [...args], {
      cwd,
      env: serverEnvironment(env, inheritEnv),
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true,
      windowsHide: true,
    });
    this.#child = child;
    const untrack = child.pid === undefined ? () => false : trackGroup(child.pid);
    this.#exited = once(child, 'close').then(
      () => undefined,
      () => undefined,
    );
    child.stdout.on('data', (chunk: Buffer) => this.#read(chunk));
    child.stderr.on('data', (chunk: Buffer) => this.#stderr.push(chunk));
    child.stdin.on('error', (error) => this.onerror?.(error));
    child.once('exit', (code, signal) => {
      if (!this.#closing) this.#exit = signal ? `signal ${signal}` : `exit code ${String(code)}`;
    });
    child.on('close', () => {
      this.#child = undefined;
      // The leader is gone (closed, crashed): what is left of its group has nobody to answer to.
      if (child.pid !== undefined) signalGroup(child.pid, 'SIGKILL');
      untrack();
      this.onclose?.();
    });
    return new Promise((resolve, reject) => {
      child.once('spawn', () => resolve());
      child.once('error', (cause) => {
        const error = new McpError(
          `${this.#server}: cannot start ${command}`,
          this.#fail('connect_failed', cause),
        );
        this.onerror?.(error);
        reject(error);
      });
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.#child?.stdin;
    if (!stdin?.writable) {
      return Promise.reject(
        // Nothing was sent: the outcome is known (not run), unlike a server dying mid-call.
        new McpError(`${this.#server}: the server process is not running`, this.#fail('unavailable')),
      );
    }
    return new Promise((resolve) => {
      if (stdin.write(serializeMessage(message))) resolve();
      else stdin.once('drain', resolve);
    });
  }

  /** Ends the process group: closes stdin, then SIGTERM, then SIGKILL after the grace time. */
  async close(): Promise<void> {
    const child = this.#child;
    if (!child || child.pid === undefined) return;
    this.#closing = true;
    // Found while the server still runs: helpers it moved to a session of their own (setsid),
    // which no signal to its group reaches.
    const strays = descendantsOf(child.pid);
    child.stdin?.end();
    signalGroup(child.pid, 'SIGTERM');
    signalProcesses(strays, 'SIGTERM');
    const grace = setTimeout(
      () => signalGroup(child.pid as number, 'SIGKILL'),
      this.#options.killGraceMs ?? 2_000,
    );
    await this.#exited;
    clearTimeout(grace);
    // The leader is gone; anything of its group still alive (a detached grandchild) goes too.
    signalGroup(child.pid, 'SIGKILL');
    signalProcesses(strays, 'SIGKILL');
  }

  #read(chunk: Buffer): void {
    try {
      this.#readBuffer.append(chunk);
    } catch (error) {
      // The only refusal: the message being read is over the limit (the buffer is already dropped).
      return this.#overflow(error);
    }
    for (;;) {
      let message: JSONRPCMessage | null;
      try {
        message = this.#readBuffer.readMessage();
      } catch (error) {
        this.onerror?.(error instanceof Error ? error : new Error(String(error)));
        continue;
      }
      if (message === null) return;
      this.onmessage?.(message);
    }
  }

  /** A message too long to be one: drop what was read of it and end the server, which broke the protocol. */
  #overflow(cause: unknown): void {
    const child = this.#child;
    if (!child) return;
    child.stdout?.removeAllListeners('data');
    const limit = this.#options.maxMessageBytes ?? MAX_MESSAGE_BYTES;
    this.onerror?.(
      new McpError(
        `${this.#server}: the server sent a message over ${limit} bytes; ending it`,
        this.#fail('disconnected', cause),
      ),
    );
    if (child.pid !== undefined) signalGroup(child.pid, 'SIGKILL');
  }

  #fail(reason: 'connect_failed' | 'disconnected' | 'unavailable', cause?: unknown) {
    return { server: this.#server, reason, cause };
  }
}
