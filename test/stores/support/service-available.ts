import { connect, createServer } from 'node:net';

/**
 * Whether a server answers on `127.0.0.1:port`. Outside CI a missing server skips its suite with a
 * message; under `CI=true` it throws, so a CI machine without the service fails the run.
 */
export async function serviceAvailable(name: string, port: number): Promise<boolean> {
  const socket = connect(port, '127.0.0.1');
  socket.setTimeout(2_000);
  const up = await new Promise<boolean>((resolve) => {
    socket.once('connect', () => resolve(true));
    socket.once('timeout', () => resolve(false));
    socket.once('error', () => resolve(false));
  });
  socket.destroy();
  if (!up && process.env.CI === 'true')
    throw new Error(`${name} is not running on 127.0.0.1:${port}, and CI needs it`);
  if (!up) console.warn(`Skipping the ${name} tests: nothing answers on 127.0.0.1:${port}`);
  return up;
}

/** A loopback port nothing listens on (bound, read, then released). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}
