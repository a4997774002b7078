// A child process of the contract suite: opens a store from a spec and races its appenders.
// Run: node --conditions=rxagent-source test/sessions/append-worker.ts '<json>'
import { SessionConflictError, user } from '../../src/core/index.ts';
import { openStoreFromSpec, type StoreSpec } from './store-from-spec.ts';

interface WorkerInput {
  spec: StoreSpec;
  id: string;
  tag: string;
  appenders: number;
  appendsEach: number;
}

const input = JSON.parse(process.argv[2] ?? '{}') as WorkerInput;
const { store, close } = await openStoreFromSpec(input.spec);
let conflicts = 0;

async function appender(index: number): Promise<void> {
  for (let k = 0; k < input.appendsEach; k += 1) {
    const text = `${input.tag}-${index}-${k}`;
    // Half the appenders race with a version (rebasing on conflict), half append blind.
    if (index % 2 === 1) {
      await store.append(input.id, [user(text)]);
      continue;
    }
    for (;;) {
      const current = await store.get(input.id);
      try {
        await store.append(input.id, [user(text)], { expectedVersion: current?.version ?? 0 });
        break;
      } catch (error) {
        if (!SessionConflictError.is(error)) throw error;
        conflicts += 1;
      }
    }
  }
}

await Promise.all(Array.from({ length: input.appenders }, (_, index) => appender(index)));
await close();
process.stdout.write(JSON.stringify({ conflicts }));
