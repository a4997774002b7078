// Vitest's global setup: says once, before any test, which of the services the suite talks to do
// not answer on 127.0.0.1 (README, "Requirements"). It only says so: the suites that need one skip
// (or, under CI=true, fail), and the others fail with a refused connection; a file that needs none
// runs as usual.
import { connect } from 'node:net';

const SERVICES = [
  { name: 'Redis', port: 6379, as: 'no password' },
  { name: 'PostgreSQL', port: 5432, as: 'user postgres, no password, database test' },
  { name: 'MariaDB/MySQL', port: 3306, as: 'user root, empty password, database test' },
] as const;

/** Whether something accepts a TCP connection on 127.0.0.1:`port` within 2 s. */
function answers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const done = (up: boolean) => {
      socket.destroy();
      resolve(up);
    };
    socket.setTimeout(2_000, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

export default async function setup(): Promise<void> {
  const missing: string[] = [];
  for (const service of SERVICES)
    if (!(await answers(service.port)))
      missing.push(`${service.name} on 127.0.0.1:${service.port} (${service.as})`);
  if (missing.length === 0) return;
  const message = `npm test: nothing answers for ${missing.join('; ')}. The suites that need it skip or fail; see the README's Requirements.`;
  console.warn(message);
}
