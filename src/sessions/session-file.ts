import { nodeBuiltin } from '../core/node-builtin.ts';
import { decodeMessage } from './message-codec.ts';
import { sessionSnapshot } from './session-snapshot.ts';
import type { Session } from './session-store.ts';
import { parseTagged } from './tagged-json.ts';

const nodeFsp = () => nodeBuiltin('node:fs/promises', 'fileSessionStore');

/** A session as `fileSessionStore` keeps it: messages stay encoded so an append never re-parses them. */
export interface SessionFile {
  version: number;
  createdAtMs: number;
  updatedAtMs: number;
  /** Tagged JSON of the metadata object. */
  metadata: string;
  /** One tagged-JSON message each. */
  messages: string[];
}

interface Header {
  format: 'rxagent-session/1';
  version: number;
  createdAtMs: number;
  updatedAtMs: number;
  metadata: string;
}

/**
 * The file's text: a JSON header line, then one line per message (tagged JSON never holds a raw
 * newline, so lines split exactly).
 */
export function sessionFileText(file: SessionFile): string {
  const header: Header = {
    format: 'rxagent-session/1',
    version: file.version,
    createdAtMs: file.createdAtMs,
    updatedAtMs: file.updatedAtMs,
    metadata: file.metadata,
  };
  return [JSON.stringify(header), ...file.messages].join('\n') + '\n';
}

/** Reads a session file, or `null` when there is none. A file that is not one of ours throws. */
export async function readSessionFile(path: string): Promise<SessionFile | null> {
  let text: string;
  try {
    text = await nodeFsp().readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  const [first = '', ...rest] = text.split('\n');
  const header = JSON.parse(first) as Partial<Header>;
  if (header.format !== 'rxagent-session/1' || typeof header.version !== 'number') {
    throw new Error(`${path} is not an rxagent session file`);
  }
  return {
    version: header.version,
    createdAtMs: Number(header.createdAtMs),
    updatedAtMs: Number(header.updatedAtMs),
    metadata: String(header.metadata),
    messages: rest.filter((line) => line !== ''),
  };
}

/** The frozen `Session` a file holds. */
export function parseSessionFile(id: string, file: SessionFile): Session {
  return sessionSnapshot({
    id,
    messages: file.messages.map(decodeMessage),
    metadata: parseTagged(file.metadata) as Record<string, unknown>,
    version: file.version,
    createdAtMs: file.createdAtMs,
    updatedAtMs: file.updatedAtMs,
  });
}
