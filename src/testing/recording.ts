import type { ModelCapabilities, StreamEvent } from '../core/index.ts';

/** The first line of a recording file. */
export interface RecordingHeader {
  rxagent: 'recording';
  version: 1;
  provider: string;
  modelId: string;
  capabilities: ModelCapabilities;
}

/** One recorded event: which turn (stream subscription) it belongs to and when it arrived. */
export interface RecordedEvent {
  turn: number;
  /** Milliseconds since the turn was subscribed. */
  atMs: number;
  event: StreamEvent;
}

/** Parses a recording's JSON Lines into its header and its turns. */
export function parseRecording(
  text: string,
  file: string,
): { header: RecordingHeader; turns: RecordedEvent[][] } {
  const lines = text.split('\n').filter((line) => line.trim() !== '');
  const [first, ...rest] = lines;
  const header = first === undefined ? undefined : (JSON.parse(first) as Partial<RecordingHeader>);
  if (header?.rxagent !== 'recording' || header.version !== 1) {
    throw new TypeError(`${file} is not an rxagent recording (version 1)`);
  }
  const turns: RecordedEvent[][] = [];
  for (const line of rest) {
    const recorded = JSON.parse(line) as RecordedEvent;
    const turn = turns[recorded.turn] ?? [];
    turn.push(recorded);
    turns[recorded.turn] = turn;
  }
  return { header: header as RecordingHeader, turns };
}
