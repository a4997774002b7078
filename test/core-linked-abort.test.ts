import { describe, expect, it } from 'vitest';
import { linkAbort } from '../src/core/linked-abort.ts';

describe('linkAbort', () => {
  it("follows the caller's signal with its reason, also when it had already aborted", () => {
    const outer = new AbortController();
    const link = linkAbort(outer.signal);
    expect(link.signal.aborted).toBe(false);
    outer.abort('stop');
    expect(link.signal.reason).toBe('stop');
    expect(linkAbort(AbortSignal.abort('early')).signal.reason).toBe('early');
  });

  it('release(true) aborts (a subscriber left early); release(false) leaves it and stops following', () => {
    const left = linkAbort(undefined);
    left.release(true);
    expect(left.signal.aborted).toBe(true);
    const outer = new AbortController();
    const done = linkAbort(outer.signal);
    done.release(false);
    outer.abort('late');
    expect(done.signal.aborted).toBe(false);
  });
});
