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
  constructor(message: string) {
    super(message);
    this.name = 'LlmError';
  }
}

export function createLlmClient(opts: LlmClientOptions) {
  const endpoint = `${opts.baseUrl.replace(/\/$/, '')}/chat/completions`;

  return {
    /** The model's answer parsed as JSON; throws LlmError on a refusal, an HTTP error or no JSON. */
    async completeJson(req: LlmJsonRequest): Promise<unknown> {
      const content: Array<Record<string, unknown>> = [{ type: 'text', text: req.text }];
      if (req.image) content.push({ type: 'image_url', image_url: { url: `data:${req.image.mimeType};base64,${req.image.bytes.toString('base64')}` } });
      let res: Response;
      try {
        res = await fetch(endpoint, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(opts.apiKey ? { authorization: `Bearer ${opts.apiKey}` } : {}) },
          body: JSON.stringify({
            model: opts.model,
            temperature: 0,
            response_format: { type: 'json_schema', json_schema: { name: req.schemaName, strict: true, schema: req.schema } },
            messages: [
              { role: 'system', content: req.system },
              { role: 'user', content },
            ],
          }),
          signal: AbortSignal.timeout(opts.timeoutMs ?? 60_000),
        });
      } catch (err) {
        throw new LlmError(`LLM unreachable: ${(err as Error).message}`);
      }
      const json = (await res.json().catch(() => null)) as any;
      if (!res.ok) throw new LlmError(`LLM answered ${res.status}: ${json?.error?.message ?? ''}`.trim());
      const message = json?.choices?.[0]?.message;
      if (message?.refusal) throw new LlmError(`LLM refused: ${message.refusal}`);
      if (typeof message?.content !== 'string') throw new LlmError('LLM answer has no message content');
      try {
        return JSON.parse(message.content);
      } catch {
        throw new LlmError('LLM answer is not JSON');
      }
    },
  };
}

export type LlmClient = ReturnType<typeof createLlmClient>;
