// A child process of file-session-kill.test.ts: appends to one session until it is killed, printing
// each acknowledged append. Run: node --conditions=rxagent-source file-lock-kill-worker.ts <dir> <tag>
import { user } from '../../src/core/index.ts';
import { fileSessionStore } from '../../src/sessions/index.ts';

const [dir = '', tag = ''] = process.argv.slice(2);
const store = fileSessionStore({ dir });
for (let k = 0; ; k += 1) {
  await store.append('s', [user(`${tag}-${k}`)]);
  process.stdout.write(`${tag}-${k}\n`);
}
