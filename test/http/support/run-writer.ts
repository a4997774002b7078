// An app server that runs one endless run on the shared Redis store and prints its id: a test
// SIGKILLs this process to see the watchers on another server end (test/http/runs-across-servers.test.ts).
import { interval, map } from 'rxjs';
import type { AgentEvent } from '../../../src/agent/agent-event.ts';
import { RunRegistry } from '../../../src/http/index.ts';
import { redisRunEventStore } from '../../../src/stores/redis/index.ts';

const [url = '', prefix = ''] = process.argv.slice(2);
const runs = new RunRegistry({ eventStore: redisRunEventStore({ url, prefix, blockMs: 100, leaseMs: 600 }) });
const { id } = runs.start(interval(50).pipe(map((i): AgentEvent => ({ type: 'text-delta', text: `${i}` }))));
process.stdout.write(`${id}\n`);
