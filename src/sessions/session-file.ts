import { nodeBuiltin } from '../core/node-builtin.ts';
import { SessionCorruptError } from '../core/index.ts';
import { decodeStoredMessages, decodeStoredMetadata } from './message-codec.ts';
import { sessionSnapshot } from './session-snapshot.ts';
import type { Session } from './session-store.ts';

const nodeFsp = () => nodeBuiltin('node:fs/promises', 'fileSessionStore');

/** A session file's head: what an append needs, read from the file's tail. */
export interface SessionFileHead {
  version: number;
  createdAtMs: number;
  updatedAtMs: number;
  /** Tagged JSON of the metadata object. */
  metadata: string;
  /** How many message lines the head commits. */
  messageCount: number;
}

/** A whole session as `fileSessionStore` keeps it: messages stay encoded (one tagged-JSON text each). */
export interface SessionFile extends SessionFileHead {
  messages: string[];
}

/** Head lines start with this byte; message lines (tagged-JSON objects) start with `{`. */
export const HEAD_MARK = '@';
const FORMAT = 'rxagent-session/2';
const LEGACY = 'rxagent-session/1';

/**
 * The line that commits an append: every message line before it belongs to the session, so an
 * append writes its messages, syncs, then writes this line and syncs again. Lines after the last
 * head line are a torn append and are ignored (and cut off by the next append).
 */
export function headLine(head: SessionFileHead): string {
  const { version, createdAtMs, updatedAtMs, metadata, messageCount } = head;
  return `${HEAD_MARK}${JSON.stringify({ format: FORMAT, version, createdAtMs, updatedAtMs, metadata, messageCount })}\n`;
}

/** A whole file's text: one line per message (tagged JSON never holds a raw newline), then the head line. */
export function sessionFileText(file: SessionFile): string {
  return file.messages.map((line) => `${line}\n`).join('') + headLine(file);
}

/**
 * The head a head line (without its mark and newline) holds.
 * @throws TypeError when it is not one
 */
export function parseHead(json: string): SessionFileHead {
  const head = JSON.parse(json) as Record<string, unknown>;
  const numbers = ['version', 'createdAtMs', 'updatedAtMs', 'messageCount'].map((key) => head[key]);
  if (
    head['format'] !== FORMAT ||
    !numbers.every(Number.isSafeInteger) ||
    typeof head['metadata'] !== 'string'
  )
    throw new TypeError('not an rxagent session head');
  const [version, createdAtMs, updatedAtMs, messageCount] = numbers as number[];
  return {
    version: version!,
    createdAtMs: createdAtMs!,
    updatedAtMs: updatedAtMs!,
    messageCount: messageCount!,
    metadata: head['metadata'],
  };
}

function parseLegacy(lines: string[]): SessionFile {
  const [first = '', ...rest] = lines;
  const header = JSON.parse(first) as Record<string, unknown>;
  const messages = rest.filter((line) => line !== '');
  return {
    version: Number(header['version']),
    createdAtMs: Number(header['createdAtMs']),
    updatedAtMs: Number(header['updatedAtMs']),
    metadata: String(header['metadata']),
    messageCount: messages.length,
    messages,
  };
}

/**
 * The session a file's text commits. Also reads the first format (a header line, then the messages).
 * @throws TypeError when the text is not a session file
 */
export function parseSessionText(text: string): SessionFile {
  const lines = text.split('\n');
  if (lines[0]?.startsWith(`{"format":"${LEGACY}"`)) return parseLegacy(lines);
  // The last element follows the last newline: empty, or an unfinished line of a torn append.
  lines.pop();
  let committed: SessionFileHead | null = null;
  const messages: string[] = [];
  for (const line of lines) {
    if (!line.startsWith(HEAD_MARK)) {
      messages.push(line);
      continue;
    }
    const head = parseHead(line.slice(HEAD_MARK.length));
    if (head.messageCount !== messages.length)
      throw new TypeError(`a head commits ${head.messageCount} messages, the file holds ${messages.length}`);
    committed = head;
  }
  // Every file is created whole (renamed into place) with a head line: one without is not ours.
  if (!committed) throw new TypeError('not an rxagent session file');
  return { ...committed, messages: messages.slice(0, committed.messageCount) };
}

/**
 * Reads a session file, or `null` when there is none.
 * @throws SessionCorruptError when the file is not a session file
 */
export async function readSessionFile(path: string, id: string): Promise<SessionFile | null> {
  let text: string;
  try {
    text = await nodeFsp().readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  try {
    return parseSessionText(text);
  } catch (cause) {
    throw new SessionCorruptError('file', id, 'head', cause);
  }
}

/**
 * The frozen `Session` a file holds.
 * @throws SessionCorruptError when a message or the metadata is not valid
 */
export function parseSessionFile(id: string, file: SessionFile): Session {
  return sessionSnapshot({
    id,
    messages: decodeStoredMessages('file', id, file.messages),
    metadata: decodeStoredMetadata('file', id, file.metadata),
    version: file.version,
    createdAtMs: file.createdAtMs,
    updatedAtMs: file.updatedAtMs,
  });
}
