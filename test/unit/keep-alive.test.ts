import http from 'node:http';
import { closeServer, keepConnectionsLongerThanClients } from '../../api/http/keep-alive';

describe('closing the API server', () => {
  it('finishes the request in flight, then closes its kept-alive connection instead of waiting 65 s', async () => {
    const server = keepConnectionsLongerThanClients(http.createServer((_req, res) => setTimeout(() => res.end('done'), 300)));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/`;
    await (await fetch(url)).text(); // leaves an idle keep-alive connection in fetch's pool
    const inFlight = fetch(url).then((r) => r.text());
    await new Promise((r) => setTimeout(r, 50));
    const started = Date.now();
    const closed = closeServer(server, 30_000).then(() => Date.now() - started);
    expect(await inFlight).toBe('done');
    // Well under the 30 s grace: the connection was closed as soon as its response was sent.
    expect(await closed).toBeLessThan(5_000);
  });
});
