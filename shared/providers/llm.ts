import { z } from 'zod';

/**
 * An OpenAI-compatible chat completions API (OpenAI, Azure OpenAI, Ollama, vLLM, LiteLLM, …):
 * `POST {LLM_API_URL}/chat/completions` with a Bearer key, answering with a JSON object that
 * follows the given JSON schema.
 */
export interface LlmClientOptions {
  baseUrl: string;
  apiKey?: string;
  model: string;
  timeoutMs?: number;
}

export interface LlmJsonRequest {
  system: string;
  text: string;
  /** Sent as a data URL image part, for vision models. */
  image?: { bytes: Buffer; mimeType: string };
  schemaName: string;
  schema: Record<string, unknown>;
}

export class LlmError extends Error {
  /**
   * The model answered, but with nothing usable (a refusal, no content, not JSON): asking again
   * would most likely get the same. Otherwise the server was unreachable or failed: worth a retry.
   */
  readonly answered: boolean;
  constructor(message: string, answered = false) {
    super(message);
    this.answered = answered;
    this.name = 'LlmError';
  }
}

/** The fields read from an answer: only the first choice's message. */
const completionBody = z.object({
  choices: z.tuple([z.object({ message: z.object({ content: z.string().nullish(), refusal: z.string().nullish() }) })], z.unknown()),
});

/** The field read from a failure; a body we cannot read is reported by its status alone. */
const errorBody = z.object({ error: z.object({ message: z.string() }) });

/** `POST {baseUrl}/chat/completions`, the key only to that server; unreachable or timed out is an LlmError. */
async function postCompletions(opts: LlmClientOptions, body: Record<string, unknown>, signal: AbortSignal): Promise<Response> {
  try {
    return await fetch(`${opts.baseUrl.replace(/\/$/, '')}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(opts.apiKey ? { authorization: `Bearer ${opts.apiKey}` } : {}) },
      body: JSON.stringify(body),
      signal,
    });
  } catch (err) {
    throw new LlmError(`LLM unreachable: ${(err as Error).message}`);
  }
}

/** A failed answer names its status and the server's message, never the request. */
function answeredError(status: number, json: unknown): LlmError {
  const failure = errorBody.safeParse(json);
  return new LlmError(`LLM answered ${status}: ${failure.success ? failure.data.error.message : ''}`.trim());
}

export function createLlmClient(opts: LlmClientOptions) {
  return {
    /** The model's answer parsed as JSON; throws LlmError on a refusal, an HTTP error or no JSON. */
    async completeJson(req: LlmJsonRequest): Promise<unknown> {
      const content: Array<Record<string, unknown>> = [{ type: 'text', text: req.text }];
      if (req.image)
        content.push({ type: 'image_url', image_url: { url: `data:${req.image.mimeType};base64,${req.image.bytes.toString('base64')}` } });
      const res = await postCompletions(
        opts,
        {
          model: opts.model,
          temperature: 0,
          response_format: { type: 'json_schema', json_schema: { name: req.schemaName, strict: true, schema: req.schema } },
          messages: [
            { role: 'system', content: req.system },
            { role: 'user', content },
          ],
        },
        AbortSignal.timeout(opts.timeoutMs ?? 60_000),
      );
      const json: unknown = await res.json().catch(() => null);
      if (!res.ok) throw answeredError(res.status, json);
      const answer = completionBody.safeParse(json);
      const message = answer.success ? answer.data.choices[0].message : undefined;
      if (message?.refusal) throw new LlmError(`LLM refused: ${message.refusal}`, true);
      if (typeof message?.content !== 'string') throw new LlmError('LLM answer has no message content', true);
      try {
        return JSON.parse(message.content) as unknown;
      } catch {
        throw new LlmError('LLM answer is not JSON', true);
      }
    },
  };
}

export type LlmClient = ReturnType<typeof createLlmClient>;

/** A message of a chat with tools, in the OpenAI chat completions format. */
export type LlmChatMessage =
  | { role: 'system' | 'user'; content: string }
  | { role: 'assistant'; content: string | null; tool_calls?: LlmToolCall[] }
  | { role: 'tool'; tool_call_id: string; content: string };

export interface LlmToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export interface LlmToolSpec {
  type: 'function';
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

/** What a streamed answer yields: text as it is written, then the tool calls the model asks for (if any). */
export type LlmStreamPart = { type: 'token'; text: string } | { type: 'tool_calls'; calls: LlmToolCall[] };

/** The fields read from a streamed chunk: text deltas and tool-call fragments (joined by `index`). */
const chunkBody = z.object({
  choices: z.array(
    z.object({
      delta: z
        .object({
          content: z.string().nullish(),
          tool_calls: z
            .array(
              z.object({
                index: z.number().int(),
                id: z.string().nullish(),
                function: z.object({ name: z.string().nullish(), arguments: z.string().nullish() }).nullish(),
              }),
            )
            .nullish(),
        })
        .nullish(),
    }),
  ),
});

/**
 * The chat side of the same API: `POST /chat/completions` with `stream: true` and tools, read as
 * server-sent events. The key goes only to the model's server; errors name the status and the
 * server's message, never the request.
 */
export function createLlmChatClient(opts: LlmClientOptions) {
  return {
    model: opts.model,
    async *streamChat(req: { messages: LlmChatMessage[]; tools: LlmToolSpec[]; signal?: AbortSignal }): AsyncGenerator<LlmStreamPart> {
      const res = await postCompletions(
        opts,
        {
          model: opts.model,
          stream: true,
          temperature: 0,
          messages: req.messages,
          ...(req.tools.length ? { tools: req.tools, tool_choice: 'auto' } : {}),
        },
        req.signal ?? AbortSignal.timeout(opts.timeoutMs ?? 120_000),
      );
      if (!res.ok || !res.body) throw answeredError(res.status, await res.json().catch(() => null));
      const calls: { id: string; name: string; arguments: string }[] = [];
      // ESM-only: a dynamic import loads it from this CommonJS code.
      const { EventSourceParserStream } = await import('eventsource-parser/stream');
      const events = res.body.pipeThrough(new TextDecoderStream()).pipeThrough(new EventSourceParserStream());
      for await (const event of events) {
        if (event.data === '[DONE]') break;
        let json: unknown;
        try {
          json = JSON.parse(event.data);
        } catch {
          throw new LlmError('LLM stream sent a chunk that is not JSON');
        }
        const chunk = chunkBody.safeParse(json);
        if (!chunk.success) continue; // keep-alives and usage chunks carry nothing we read
        const delta = chunk.data.choices.at(0)?.delta;
        if (delta?.content) yield { type: 'token', text: delta.content };
        for (const part of delta?.tool_calls ?? []) {
          const call = (calls[part.index] ??= { id: '', name: '', arguments: '' });
          if (part.id) call.id = part.id;
          if (part.function?.name) call.name += part.function.name;
          if (part.function?.arguments) call.arguments += part.function.arguments;
        }
      }
      const asked = calls.filter(Boolean);
      if (asked.length) {
        yield {
          type: 'tool_calls',
          calls: asked.map((c, i) => ({
            id: c.id || `call_${i + 1}`,
            type: 'function',
            function: { name: c.name, arguments: c.arguments },
          })),
        };
      }
    },
  };
}

export type LlmChatClient = ReturnType<typeof createLlmChatClient>;
