import { randomUUID } from 'node:crypto';
import type { EventId, EventStore, JSONRPCMessage, StreamId } from '@modelcontextprotocol/server';

/**
 * The SSE event store of one 2025-era session: keeps the newest `limit` messages so a client that
 * reconnects with `Last-Event-ID` gets exactly what it missed on that stream.
 */
export function memoryEventStore(limit = 1_000): EventStore {
  const events = new Map<EventId, { streamId: StreamId; message: JSONRPCMessage }>();
  let sequence = 0;
  return {
    storeEvent(streamId, message) {
      const id = `${streamId}:${String(++sequence).padStart(12, '0')}:${randomUUID().slice(0, 8)}`;
      events.set(id, { streamId, message });
      if (events.size > limit) events.delete(events.keys().next().value as EventId);
      return Promise.resolve(id);
    },
    getStreamIdForEventId(eventId) {
      return Promise.resolve(events.get(eventId)?.streamId);
    },
    async replayEventsAfter(lastEventId, { send }) {
      const streamId = events.get(lastEventId)?.streamId ?? lastEventId.split(':')[0] ?? lastEventId;
      // Ids of one stream share its prefix and sort by their zero-padded sequence number.
      for (const [id, event] of events) {
        if (event.streamId === streamId && id > lastEventId) await send(id, event.message);
      }
      return streamId;
    },
  };
}
