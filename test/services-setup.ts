// Vitest's global setup: says once, before any test, which of the services the suite talks to do
// not answer on 127.0.0.1 (README, "Requirements"). Under CI=true a missing one fails the run here;
// elsewhere the suites that check skip, and the others fail with a refused connection.
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
  if (process.env.CI === 'true') throw new Error(message);
  console.warn(message);
}
