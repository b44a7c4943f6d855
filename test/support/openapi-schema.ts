import { z } from 'zod';

type Json = Record<string, unknown>;

/**
 * The schema an OpenAPI document gives an outgoing webhook's body, as a zod validator: local `$ref`s
 * resolved, and every object closed to properties it does not list, so a payload passes only if the
 * document describes all of it.
 */
export function documentedWebhookBody(doc: Json, type: string): z.ZodType {
  const webhooks = doc.webhooks as Record<string, { post: { requestBody: { content: Record<string, { schema: Json }> } } }>;
  const hook = webhooks[type] as (typeof webhooks)[string] | undefined;
  if (!hook) throw new Error(`the document has no webhook ${type}`);
  return z.fromJSONSchema(resolved(doc, hook.post.requestBody.content['application/json'].schema) as never);
}

function resolved(doc: Json, node: unknown): unknown {
  if (Array.isArray(node)) return node.map((n) => resolved(doc, n));
  if (typeof node !== 'object' || node === null) return node;
  const { $ref } = node as { $ref?: string };
  if ($ref)
    return resolved(
      doc,
      $ref
        .slice(2)
        .split('/')
        .reduce<unknown>((at, key) => (at as Json)[key], doc),
    );
  const out = Object.fromEntries(Object.entries(node).map(([k, v]) => [k, resolved(doc, v)]));
  return 'properties' in out && !('additionalProperties' in out) ? { ...out, additionalProperties: false } : out;
}
