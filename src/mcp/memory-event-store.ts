import { randomUUID } from 'node:crypto';
import type { EventId, EventStore, JSONRPCMessage, StreamId } from '@modelcontextprotocol/server';

/** How much one session's event store keeps for replay. */
export interface EventStoreLimits {
  /** @default 1_000 */
  maxEvents?: number;
  /** Bytes of JSON kept, all streams together. @default 4_194_304 (4 MiB) */
  maxBytes?: number;
  /** Events older than this are dropped. @default 300_000 (5 minutes) */
  maxAgeMs?: number;
}

interface StoredEvent {
  streamId: StreamId;
  message: JSONRPCMessage;
  bytes: number;
  at: number;
}

/**
 * The SSE event store of one 2025-era session: keeps the newest messages, within a count, a byte
 * size and an age, so a client that reconnects with `Last-Event-ID` gets what it missed on that
 * stream, and a session that sends large results cannot hold more than `maxBytes`.
 */
export function memoryEventStore(limits: EventStoreLimits = {}): EventStore {
  const { maxEvents = 1_000, maxBytes = 4 * 1024 * 1024, maxAgeMs = 300_000 } = limits;
  const events = new Map<EventId, StoredEvent>();
  let bytes = 0;
  let sequence = 0;
  const dropOldest = () => {
    const [id, oldest] = events.entries().next().value as [EventId, StoredEvent];
    events.delete(id);
    bytes -= oldest.bytes;
  };
  const prune = (now: number) => {
    while (events.size > 0) {
      const oldest = events.values().next().value as StoredEvent;
      if (events.size > maxEvents || bytes > maxBytes || now - oldest.at > maxAgeMs) dropOldest();
      else return;
    }
  };
  return {
    storeEvent(streamId, message) {
      const id = `${streamId}:${String(++sequence).padStart(12, '0')}:${randomUUID().slice(0, 8)}`;
      const size = Buffer.byteLength(JSON.stringify(message));
      const now = Date.now();
      events.set(id, { streamId, message, bytes: size, at: now });
      bytes += size;
      prune(now);
      return Promise.resolve(id);
    },
    getStreamIdForEventId(eventId) {
      return Promise.resolve(events.get(eventId)?.streamId);
    },
    async replayEventsAfter(lastEventId, { send }) {
      prune(Date.now());
      const streamId = events.get(lastEventId)?.streamId ?? lastEventId.split(':')[0] ?? lastEventId;
      // Ids of one stream share its prefix and sort by their zero-padded sequence number.
      for (const [id, event] of events) {
        if (event.streamId === streamId && id > lastEventId) await send(id, event.message);
      }
      return streamId;
    },
  };
}
