import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import Koa from 'koa';
import { setJsonBody } from '../../api/http/json-response';

/** The response a koa app sends for one request whose handler is `handle`. */
async function answer(handle: (ctx: Koa.Context) => void) {
  const app = new Koa();
  app.use((ctx) => handle(ctx));
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  try {
    const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    return { status: res.status, type: res.headers.get('content-type'), length: res.headers.get('content-length'), text: await res.text() };
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
}

describe('setJsonBody', () => {
  const value = {
    data: [{ name: 'Café Zürich', amount: -4.5, note: null, tags: ['€', '日本'] }],
    meta: { cursor: null, hasNextPage: false },
  };

  it('sends what koa sends for the value itself: the same type, length and text', async () => {
    const ours = await answer((ctx) => setJsonBody(ctx, value));
    const koas = await answer((ctx) => (ctx.body = value));
    expect(ours).toEqual(koas);
    expect(ours).toEqual({
      status: 200,
      type: 'application/json; charset=utf-8',
      // Bytes, not characters: the names above are longer in UTF-8 than as text.
      length: String(Buffer.byteLength(JSON.stringify(value))),
      text: JSON.stringify(value),
    });
  });

  it('keeps a content type the handler chose, and the status it set', async () => {
    const res = await answer((ctx) => {
      ctx.status = 201;
      ctx.set('Content-Type', 'application/problem+json');
      setJsonBody(ctx, { title: 'x' });
    });
    expect(res).toMatchObject({ status: 201, type: 'application/problem+json', text: '{"title":"x"}' });
  });
});
