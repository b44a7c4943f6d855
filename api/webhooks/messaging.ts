import { createHmac } from 'node:crypto';
import type Router from '@koa/router';
import { z } from 'zod';
import { safeEqual } from '../../shared/domain/crypto/tokens';
import { receiveChatMessage, type IncomingChatMessage } from '../../shared/domain/messaging/incoming';
import { forbidden, tooManyRequests } from '../../shared/errors';
import type { ApiDeps } from '../deps';
import type { AppState } from '../http/state';
import type { WebhookSpec } from './pipeline';

const message = z
  .object({
    from: z.string().min(1),
    id: z.string().min(1),
    type: z.string().min(1),
    text: z.object({ body: z.string() }).optional(),
    image: z.object({ id: z.string(), mime_type: z.string(), caption: z.string().optional() }).optional(),
    document: z
      .object({ id: z.string(), mime_type: z.string(), filename: z.string().optional(), caption: z.string().optional() })
      .optional(),
    interactive: z
      .object({ type: z.string().optional(), button_reply: z.object({ id: z.string(), title: z.string().optional() }).optional() })
      .optional(),
  })
  .loose();
type Message = z.infer<typeof message>;

const payload = z.object({
  object: z.string(),
  entry: z.array(
    z
      .object({
        changes: z.array(z.object({ field: z.string(), value: z.object({ messages: z.array(message).optional() }).loose() })),
      })
      .loose(),
  ),
});
type Payload = z.infer<typeof payload>;

/** Null for message types we do not act on (reactions, locations, …). */
function incoming(m: Message): IncomingChatMessage | null {
  const { id, from } = m;
  if (m.type === 'text' && m.text) return { id, from, kind: 'text', text: m.text.body };
  const media = m.type === 'image' ? m.image : m.type === 'document' ? m.document : undefined;
  if (media)
    return { id, from, kind: 'file', mediaId: media.id, mimeType: media.mime_type, fileName: m.document?.filename, caption: media.caption };
  if (m.type === 'interactive') return { id, from, kind: 'button', buttonId: m.interactive?.button_reply?.id ?? '' };
  return null;
}

/** POST /webhook/messaging (WhatsApp Cloud API format); replies go out through workflows, never from here. */
export function messagingWebhook(deps: ApiDeps): WebhookSpec<Payload, Message> {
  const { config } = deps;
  return {
    provider: 'messaging',
    maxBytes: 1024 * 1024,
    verify(req) {
      const header = req.headers['x-hub-signature-256'];
      if (typeof header !== 'string' || !header.startsWith('sha256=')) return false;
      const expected = createHmac('sha256', config.MESSAGING_APP_SECRET).update(req.raw).digest('hex');
      return safeEqual(expected, header.slice(7));
    },
    schema: payload,
    events: (p) =>
      p.entry.flatMap((e) =>
        e.changes
          .filter((c) => c.field === 'messages')
          .flatMap((c) => (c.value.messages ?? []).map((m) => ({ key: m.id, type: m.type, event: m }))),
      ),
    async handle({ event: m }) {
      const message = incoming(m);
      return message ? receiveChatMessage(deps, message) : { outcome: 'ignored' };
    },
  };
}

/** GET /webhook/messaging: the provider's subscription handshake. */
export function messagingVerification(router: Router<AppState>, deps: ApiDeps) {
  const perMinute = deps.config.AUTH_FAILURES_PER_MINUTE;
  const failures = deps.limiters.limiter({ keyPrefix: 'verify-token-failures', points: perMinute, durationS: 60 });
  router.get('/webhook/messaging', async (ctx) => {
    const key = `ip:${ctx.ip}`;
    const seen = await failures.get(key).catch(() => null);
    if (seen && seen.consumedPoints >= perMinute) {
      deps.metrics.rateLimited('webhook_failures');
      ctx.set('Retry-After', String(Math.max(1, Math.ceil(seen.msBeforeNext / 1000))));
      throw tooManyRequests('Too many wrong verification tokens from this address');
    }
    const q = ctx.query;
    const token = typeof q['hub.verify_token'] === 'string' ? q['hub.verify_token'] : '';
    if (q['hub.mode'] !== 'subscribe' || !token || !safeEqual(token, deps.config.MESSAGING_VERIFY_TOKEN)) {
      await failures.penalty(key, 1).catch(() => undefined);
      throw forbidden('Verification token mismatch');
    }
    ctx.type = 'text/plain';
    ctx.body = String(q['hub.challenge'] ?? '');
  });
}
