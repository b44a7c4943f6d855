import http from 'node:http';
import type { UntypedJson } from '../support/untyped-json';

/** What the "model" does with a request: call tools, or write text (streamed in pieces). */
export type FakeTurn = { toolCalls: { name: string; arguments: Record<string, unknown> }[] } | { text: string };

export interface FakeChatRequest {
  headers: http.IncomingHttpHeaders;
  body: UntypedJson;
}

/**
 * An OpenAI-compatible chat completions API on loopback that streams (`stream: true`) as OpenAI
 * does: `data:` chunks with `delta.content`, or `delta.tool_calls` whose arguments arrive in
 * fragments, then `data: [DONE]`. `decide` plays the model.
 */
export async function startLlmChatFake(apiKey: string, decide: (req: FakeChatRequest) => FakeTurn) {
  const requests: FakeChatRequest[] = [];
  let failNext = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.headers.authorization !== `Bearer ${apiKey}`) {
        res.writeHead(401, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: 'Incorrect API key provided', code: 'invalid_api_key' } }));
        return;
      }
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      const request = { headers: req.headers, body };
      requests.push(request);
      if (failNext > 0) {
        failNext--;
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: 'The server had an error while processing your request' } }));
        return;
      }
      const turn = decide(request);
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      const id = `chatcmpl-${requests.length}`;
      const send = (delta: unknown, finish: string | null = null) =>
        res.write(
          `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', model: body.model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`,
        );
      send({ role: 'assistant', content: '' });
      if ('text' in turn) {
        for (const piece of turn.text.match(/\S+\s*/g) ?? []) send({ content: piece });
        send({}, 'stop');
      } else {
        turn.toolCalls.forEach((call, index) => {
          const args = JSON.stringify(call.arguments);
          const half = Math.ceil(args.length / 2);
          send({
            tool_calls: [
              { index, id: `call_fake_${index}`, type: 'function', function: { name: call.name, arguments: args.slice(0, half) } },
            ],
          });
          send({ tool_calls: [{ index, function: { arguments: args.slice(half) } }] });
        });
        send({}, 'tool_calls');
      }
      res.write('data: [DONE]\n\n');
      res.end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/v1`;
  return {
    url,
    requests,
    /** The next `times` requests fail with 500, as an overloaded provider does. */
    fail(times = 1) {
      failNext = times;
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
