/**
 * Sessions: a conversation kept in files that survives restarts, with optimistic versioning.
 * Two writers read the same version; the second one's append is a SessionConflictError, so it
 * re-reads and appends after the first — nothing lost, nothing duplicated.
 *
 *   npx node --conditions=rxagent-source examples/sessions.ts
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assistant, fileSessionStore, SessionConflictError, textOf, user } from 'rxagent';

const dir = await mkdtemp(join(tmpdir(), 'rxagent-sessions-'));
const sessions = fileSessionStore({ dir, ttlMs: 7 * 24 * 3600_000 });

await sessions.append('chat-42', [user('Hi! I am Ada.'), assistant('Hello Ada.')], {
  metadata: { title: 'Intro' },
});

// Two runs start from the same version...
const seen = await sessions.get('chat-42');
const first = seen?.version ?? 0;
await sessions.append('chat-42', [user('What is my name?'), assistant('Ada.')], { expectedVersion: first });
try {
  await sessions.append('chat-42', [user('And my title?')], { expectedVersion: first });
} catch (error) {
  if (!SessionConflictError.is(error)) throw error;
  // ...the slower one re-reads and appends after the winner.
  console.log(
    `conflict: expected version ${error.expectedVersion}, the session is at ${error.actualVersion}`,
  );
  const now = await sessions.get('chat-42');
  await sessions.append('chat-42', [user('And my title?')], { expectedVersion: now?.version ?? 0 });
}

const session = await sessions.get('chat-42');
console.log(`version ${session?.version}, title ${String(session?.metadata.title)}`);
for (const message of session?.messages ?? []) console.log(`${message.role}: ${textOf(message.content)}`);
await rm(dir, { recursive: true, force: true });
