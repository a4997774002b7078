import type { Readable, Writable } from 'node:stream';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { lineLimiter } from './line-limiter.ts';
import { refusedMessageId } from './refused-message-id.ts';

/** The SDK's own stdio limit. */
export const STDIO_MAX_MESSAGE_BYTES = 10 * 1024 * 1024;

/**
 * The SDK's stdio server transport with a limit that does not end the connection: a message over
 * `maxMessageBytes` is dropped as it arrives (never buffered whole) and answered with a JSON-RPC
 * `-32600` error carrying its id (read from its ends, `null` when it cannot be found), so the client's
 * call fails at once and the next message is served. The SDK's transport instead closes on such a
 * message: the server stops answering and, with any other handle open, never exits.
 */
export class LimitedStdioServerTransport extends StdioServerTransport {
  constructor(
    stdin: Readable | undefined,
    stdout: Writable | undefined,
    maxMessageBytes = STDIO_MAX_MESSAGE_BYTES,
    onError: (error: Error) => void = () => undefined,
  ) {
    // The SDK's buffer only ever sees whole lines within the limit, each with its newline, and
    // parses them all at once: the limiter is the bound. One chunk may carry several such lines
    // (a client that pipelines, one pipe read), longer together than one message may be, so the
    // SDK's own limit (which closes the transport) must not apply to what is handed over.
    super(stdin, stdout, { maxBufferSize: Number.POSITIVE_INFINITY });
    const deliver = this._ondata;
    this._ondata = lineLimiter(maxMessageBytes, deliver, (line) => {
      const id = refusedMessageId(line);
      const message = `Invalid Request: the message is ${line.bytes} bytes, over the limit of ${maxMessageBytes}`;
      onError(new Error(message));
      this.send({ jsonrpc: '2.0', id: id as never, error: { code: -32600, message } }).catch(onError);
    });
  }
}
