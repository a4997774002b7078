import { nodeBuiltin } from '../core/node-builtin.ts';
import { SessionConflictError, SessionCorruptError } from '../core/index.ts';
import { type AppendRequest, isExpired } from './append-request.ts';
import { decodeStoredMetadata } from './message-codec.ts';
import {
  headLine,
  readSessionFile,
  type SessionFile,
  type SessionFileHead,
  sessionFileText,
} from './session-file.ts';
import { readTailHead, type TailHead } from './session-file-tail.ts';
import { mergeMetadata } from './session-snapshot.ts';
import type { AppendedSession } from './session-store.ts';
import { appendedSession } from './stored-session.ts';
import { stringifyTagged } from './tagged-json.ts';

const nodeFsp = () => nodeBuiltin('node:fs/promises', 'fileSessionStore');
const nodePath = () => nodeBuiltin('node:path', 'fileSessionStore');

async function write(path: string, file: SessionFile, signal?: AbortSignal): Promise<void> {
  const temporary = `${path}.${globalThis.crypto.randomUUID()}.tmp`;
  const handle = await nodeFsp().open(temporary, 'w', 0o600);
  try {
    await handle.writeFile(sessionFileText(file));
    await handle.sync();
  } finally {
    await handle.close();
  }
  if (signal?.aborted) {
    await nodeFsp()
      .unlink(temporary)
      .catch(() => undefined);
    signal.throwIfAborted();
  }
  await nodeFsp().rename(temporary, path);
  const directory = await nodeFsp().open(nodePath().dirname(path), 'r');
  try {
    await directory.sync();
  } finally {
    await directory.close();
  }
}

/**
 * Appends to a live session file in place: cuts a torn tail, writes the message lines, syncs,
 * writes the head line that commits them, syncs. Reads only the file's tail, so it costs the same
 * at any session length. `null` when the file is missing, expired or in the first format (then
 * `rewrite`). Writes nothing once `signal` has aborted. Call it holding the session's lock.
 * @throws SessionConflictError, SessionCorruptError
 */
export async function appendInPlace(
  path: string,
  request: AppendRequest,
  at: number,
  ttlMs: number | undefined,
  signal?: AbortSignal,
): Promise<AppendedSession | null> {
  const handle = await nodeFsp()
    .open(path, 'r+')
    .catch((error: unknown) => {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    });
  if (!handle) return null;
  try {
    const { size } = await handle.stat();
    let tail: TailHead | null;
    try {
      tail = await readTailHead(handle, size);
    } catch (cause) {
      throw new SessionCorruptError('file', request.id, 'head', cause);
    }
    if (!tail || isExpired(tail.head.updatedAtMs, ttlMs, at)) return null;
    const { head } = tail;
    if (request.expectedVersion !== undefined && request.expectedVersion !== head.version) {
      throw new SessionConflictError(request.id, request.expectedVersion, head.version);
    }
    const metadata = mergeMetadata(decodeStoredMetadata('file', request.id, head.metadata), request.metadata);
    const next: SessionFileHead = {
      version: head.version + 1,
      createdAtMs: head.createdAtMs,
      updatedAtMs: at,
      metadata: stringifyTagged(metadata),
      messageCount: head.messageCount + request.encoded.length,
    };
    signal?.throwIfAborted();
    if (size > tail.committedBytes) await handle.truncate(tail.committedBytes);
    const lines = Buffer.from(request.encoded.map((line) => `${line}\n`).join(''));
    await handle.write(lines, 0, lines.length, tail.committedBytes);
    await handle.sync();
    // Lines without a head line after them are a torn append: never read, cut by the next one.
    signal?.throwIfAborted();
    const line = Buffer.from(headLine(next));
    await handle.write(line, 0, line.length, tail.committedBytes + lines.length);
    await handle.sync();
    return appendedSession({ id: request.id, ...next, metadata });
  } finally {
    await handle.close();
  }
}

/**
 * Writes a new, expired or first-format session whole: a temporary file, synced, renamed over the
 * session, then the directory synced. Writes nothing once `signal` has aborted. Call it holding the
 * session's lock.
 * @throws SessionConflictError, SessionCorruptError
 */
export async function rewrite(
  path: string,
  request: AppendRequest,
  at: number,
  ttlMs: number | undefined,
  signal?: AbortSignal,
): Promise<AppendedSession> {
  const read = await readSessionFile(path, request.id);
  const current = read && !isExpired(read.updatedAtMs, ttlMs, at) ? read : null;
  const version = current?.version ?? 0;
  if (request.expectedVersion !== undefined && request.expectedVersion !== version) {
    throw new SessionConflictError(request.id, request.expectedVersion, version);
  }
  const metadata = mergeMetadata(
    current ? decodeStoredMetadata('file', request.id, current.metadata) : {},
    request.metadata,
  );
  const messages = [...(current?.messages ?? []), ...request.encoded];
  const next: SessionFile = {
    version: version + 1,
    createdAtMs: current?.createdAtMs ?? at,
    updatedAtMs: at,
    metadata: stringifyTagged(metadata),
    messageCount: messages.length,
    messages,
  };
  signal?.throwIfAborted();
  await write(path, next, signal);
  return appendedSession({ id: request.id, ...next, metadata });
}
