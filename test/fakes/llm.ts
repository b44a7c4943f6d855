import { startHttpFake, type FakeRequest } from './http-fake';

const RAW = Symbol('raw content');
/** What the "model" writes as is, not as JSON: a broken answer. */
export const rawContent = (text: string) => ({ [RAW]: text });
const contentOf = (answer: unknown) =>
  answer && typeof answer === 'object' && RAW in answer ? String((answer as Record<symbol, unknown>)[RAW]) : JSON.stringify(answer);

/**
 * An OpenAI-compatible chat completions API on loopback (`POST /v1/chat/completions`, Bearer key).
 * `answer` decides the JSON the "model" puts in the message content for each request (`rawContent` for text that is not JSON).
 */
export async function startLlmFake(apiKey: string, answer: (req: FakeRequest) => unknown) {
  const fake = await startHttpFake(async (req) => {
    if (req.headers.authorization !== `Bearer ${apiKey}`) {
      return {
        status: 401,
        body: { error: { message: 'Incorrect API key provided', type: 'invalid_request_error', code: 'invalid_api_key' } },
      };
    }
    if (req.method !== 'POST' || req.path !== '/v1/chat/completions') return { status: 404, body: { error: { message: 'not found' } } };
    return {
      body: {
        id: `chatcmpl-${fake.calls.length}`,
        object: 'chat.completion',
        created: Math.floor(Date.now() / 1000),
        model: req.body.model,
        choices: [
          { index: 0, finish_reason: 'stop', message: { role: 'assistant', content: contentOf(await answer(req)), refusal: null } },
        ],
        usage: { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 },
      },
    };
  });
  return { ...fake, url: `${fake.url}/v1` };
}
