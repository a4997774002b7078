import { SlowConsumerError } from '../core/index.ts';

/**
 * Judges a client by the bytes it leaves unread. The first `maxReplayBytes` a stream sends are its
 * replay (a resumed run's past events arrive in bursts, at once or page by page from a store,
 * faster than any network carries them): while they are sent, up to `maxReplayBytes` may wait
 * unread. After that, `maxBufferedBytes` is the limit. A replay larger still may be cut, and the
 * client resumes after the last event it got. Returns the error that ends the stream, if any.
 * @example const check = sseBufferGuard(1 << 20, 8 << 20); const error = check(frame.length, res.writableLength);
 */
export function sseBufferGuard(
  maxBufferedBytes: number,
  maxReplayBytes: number,
): (written: number, buffered: number) => SlowConsumerError | undefined {
  let sent = 0;
  return (written, buffered) => {
    sent += written;
    const limit = sent <= maxReplayBytes ? Math.max(maxReplayBytes, maxBufferedBytes) : maxBufferedBytes;
    return buffered > limit ? new SlowConsumerError(buffered, limit) : undefined;
  };
}
