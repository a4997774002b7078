import type { FileHandle } from 'node:fs/promises';
import { HEAD_MARK, parseHead, type SessionFileHead } from './session-file.ts';

const NEWLINE = 0x0a;
const MARK = HEAD_MARK.charCodeAt(0);
const FIRST_CHUNK = 64 * 1024;

/** The last committed head of a session file, and where its committed part ends. */
export interface TailHead {
  head: SessionFileHead;
  /** The byte length of the committed part: anything after it is a torn append. */
  committedBytes: number;
}

/** The last complete head line in `bytes` (the file's last `bytes.length` bytes end at `end`). */
function lastHead(bytes: Buffer, start: number): TailHead | null {
  // UTF-8 never uses the bytes of '\n' or '@' inside a multi-byte character, so bytes can be searched.
  for (let close = bytes.lastIndexOf(NEWLINE); close >= 0; close = bytes.lastIndexOf(NEWLINE, close - 1)) {
    const open = close === 0 ? -1 : bytes.lastIndexOf(NEWLINE, close - 1);
    const lineStart = open + 1;
    // A line cut by the chunk's start is not known to start there unless the chunk is the file's start.
    if (open < 0 && start > 0) return null;
    if (bytes[lineStart] === MARK) {
      const json = bytes.subarray(lineStart + 1, close).toString('utf8');
      return { head: parseHead(json), committedBytes: start + close + 1 };
    }
    if (open < 0) return null;
    close = open + 1;
  }
  return null;
}

/**
 * Reads a session file's last committed head from its tail (a chunk of 64 KiB, doubled until a whole
 * head line is in it), so an append reads a bounded amount however long the session is.
 * `null` when the file commits no head in this format (empty, torn, or the first format).
 * @throws TypeError when the head line is not valid
 */
export async function readTailHead(handle: FileHandle, size: number): Promise<TailHead | null> {
  for (let length = Math.min(FIRST_CHUNK, size); length > 0; length = Math.min(length * 2, size)) {
    const start = size - length;
    const bytes = Buffer.alloc(length);
    await handle.read(bytes, 0, length, start);
    const found = lastHead(bytes, start);
    if (found || start === 0) return found;
  }
  return null;
}
