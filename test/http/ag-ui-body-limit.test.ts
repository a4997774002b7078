import { request as httpRequest } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { Agent } from '../../src/agent/index.ts';
import { agUiHandler } from '../../src/ag-ui/index.ts';
import { RunRegistry } from '../../src/http/index.ts';
import { scriptedModel } from '../../src/testing/index.ts';
import { type Listening, listen } from './support/listen.ts';
import { serveFetch } from './support/serve-fetch.ts';

const servers: Listening[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});
const input = (padding: string) =>
  `{"threadId":"t","runId":"r","state":{},"tools":[],"context":[],"forwardedProps":{},"messages":[{"id":"u","role":"user","content":"Hi${padding}"}]}`;

describe('agUiHandler: a body larger than maxBodyBytes', () => {
  it('is a 413 with a typed error, and the model is never called', async () => {
    const model = scriptedModel([{ text: 'Hello.' }]);
    const server = await serveFetch(agUiHandler(new Agent({ model }), { runs: new RunRegistry() }));
    servers.push(server);
    const response = await fetch(server.url, { method: 'POST', body: input('x'.repeat(9 * 1024 * 1024)) });
    expect(response.status).toBe(413);
    await expect(response.json()).resolves.toMatchObject({ error: { code: 'body_too_large' } });
    expect(model.requests).toHaveLength(0);

    const small = await fetch(server.url, { method: 'POST', body: input('') });
    expect(small.status).toBe(200);
    await small.text();
    expect(model.requests).toHaveLength(1);
  });

  it('stops reading a streamed body once it passes the bound (no content-length)', async () => {
    const handle = agUiHandler(new Agent({ model: scriptedModel([]) }), {
      runs: new RunRegistry(),
      maxBodyBytes: 1024,
    });
    let sent = 0;
    // A Web Request whose body streams without end, as from a client that never stops sending.
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        sent += 1;
        controller.enqueue(new TextEncoder().encode(' '.repeat(512)));
      },
    });
    const server = await listen((_req, res) => {
      void handle(
        new Request('http://127.0.0.1/', { method: 'POST', body, duplex: 'half' } as RequestInit),
      ).then(async (response) => res.writeHead(response.status).end(await response.text()));
    });
    servers.push(server);
    const status = await new Promise<number>((resolve, reject) => {
      httpRequest(server.url, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      })
        .on('error', reject)
        .end();
    });
    expect(status).toBe(413);
    expect(sent).toBeLessThan(10);
  });
});
