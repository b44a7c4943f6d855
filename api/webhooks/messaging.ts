import { createHmac } from 'node:crypto';
import { TypedSearchAttributes } from '@temporalio/common';
import { WorkflowIdReusePolicy } from '@temporalio/client';
import type Router from '@koa/router';
import { z } from 'zod';
import { safeEqual } from '../../shared/domain/crypto/tokens';
import { decideSuggestion } from '../../shared/domain/receipts/decide';
import { INBOX_ID_PATTERN } from '../../shared/domain/teams/inbox-id';
import { forbidden } from '../../shared/errors';
import { workflowIds } from '../../shared/temporal/names';
import { searchAttributeKeys } from '../../shared/temporal/search-attributes';
import type { receiptIngestion, sendChatMessage } from '../../workflows';
import type { ApiDeps } from '../deps';
import type { AppState } from '../http/state';
import type { HandledEvent, WebhookSpec } from './pipeline';

export const SUPPORTED_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/heic', 'application/pdf'];

const message = z
  .object({
    from: z.string().min(1),
    id: z.string().min(1),
    type: z.string().min(1),
    text: z.object({ body: z.string() }).optional(),
    image: z.object({ id: z.string(), mime_type: z.string(), caption: z.string().optional() }).optional(),
    document: z.object({ id: z.string(), mime_type: z.string(), filename: z.string().optional(), caption: z.string().optional() }).optional(),
    interactive: z.object({ type: z.string().optional(), button_reply: z.object({ id: z.string(), title: z.string().optional() }).optional() }).optional(),
  })
  .passthrough();
type Message = z.infer<typeof message>;

const payload = z.object({
  object: z.string(),
  entry: z.array(z.object({ changes: z.array(z.object({ field: z.string(), value: z.object({ messages: z.array(message).optional() }).passthrough() })) }).passthrough()),
});
type Payload = z.infer<typeof payload>;

const WELCOME = 'Hi! To send receipts here, connect this number to your team: reply with "Connect inbox <your inbox id>" (you find the inbox id in the app).';

/** POST /webhook/messaging (WhatsApp Cloud API format); replies go out through workflows, never from here. */
export function messagingWebhook(deps: ApiDeps): WebhookSpec<Payload, Message> {
  const { db, config, temporal } = deps;

  async function reply(to: string, incomingId: string, text: string): Promise<string> {
    const client = await temporal.client();
    const workflowId = workflowIds.chatReply(incomingId);
    await client.workflow.start<typeof sendChatMessage>('sendChatMessage', { taskQueue: temporal.options.taskQueue, workflowId, args: [{ to, text }], workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE }).catch((err) => {
      if ((err as Error).name !== 'WorkflowExecutionAlreadyStartedError') throw err;
    });
    return workflowId;
  }

  async function onText(m: Message): Promise<HandledEvent> {
    const existing = await db('messaging_connections').where({ phoneNumber: m.from }).first();
    const inboxId = INBOX_ID_PATTERN.exec(m.text?.body.toLowerCase() ?? '')?.[0];
    const team = inboxId ? await db('teams').where({ inboxId }).first() : undefined;
    if (team) {
      if (existing && existing.teamId !== team.id) {
        return { outcome: 'processed', workflowId: await reply(m.from, m.id, 'This number is already connected to another team. Disconnect it there first.') };
      }
      if (!existing) await db('messaging_connections').insert({ teamId: team.id, phoneNumber: m.from });
      return { outcome: 'processed', teamId: team.id, workflowId: await reply(m.from, m.id, `Connected to ${team.name}. Send a photo or PDF of a receipt and it will be matched to its transaction.`) };
    }
    if (!existing) return { outcome: 'processed', workflowId: await reply(m.from, m.id, WELCOME) };
    return { outcome: 'processed', teamId: existing.teamId, workflowId: await reply(m.from, m.id, 'Send a photo or PDF of a receipt and it will be matched to its transaction.') };
  }

  async function onMedia(m: Message): Promise<HandledEvent> {
    const media = m.image ?? m.document!;
    const conn = await db('messaging_connections').where({ phoneNumber: m.from }).first();
    if (!conn) return { outcome: 'processed', workflowId: await reply(m.from, m.id, WELCOME) };
    if (!SUPPORTED_TYPES.includes(media.mime_type)) {
      return { outcome: 'processed', teamId: conn.teamId, workflowId: await reply(m.from, m.id, 'That file type is not supported. Send a JPEG, PNG, WebP or HEIC photo, or a PDF.') };
    }
    const workflowId = workflowIds.receipt(conn.teamId, m.id);
    const client = await temporal.client();
    await client.workflow
      .start<typeof receiptIngestion>('receiptIngestion', {
        taskQueue: temporal.options.taskQueue,
        workflowId,
        workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
        typedSearchAttributes: new TypedSearchAttributes([{ key: searchAttributeKeys.TeamId, value: conn.teamId }, { key: searchAttributeKeys.Stage, value: 'uploading' }]),
        args: [
          {
            teamId: conn.teamId,
            source: 'messaging',
            reference: m.id,
            mediaId: media.id,
            mimeType: media.mime_type,
            fileName: m.document?.filename,
            caption: media.caption,
            sender: m.from,
            phoneNumber: m.from,
            messageId: m.id,
            workflowId,
            decisionTimeoutMs: config.RECEIPT_DECISION_TIMEOUT,
          },
        ],
      })
      .catch((err) => {
        if ((err as Error).name !== 'WorkflowExecutionAlreadyStartedError') throw err; // a redelivery starts nothing new
      });
    return { outcome: 'processed', teamId: conn.teamId, workflowId };
  }

  async function onButton(m: Message): Promise<HandledEvent> {
    const [action, inboxItemId, transactionId] = (m.interactive?.button_reply?.id ?? '').split(':');
    const conn = await db('messaging_connections').where({ phoneNumber: m.from }).first();
    if (!conn || (action !== 'confirm' && action !== 'decline') || !inboxItemId || !transactionId) return { outcome: 'ignored' };
    const item = await db('inbox_items').where({ teamId: conn.teamId }).whereRaw('id::text = ?', [inboxItemId]).first();
    if (!item) return { outcome: 'ignored', teamId: conn.teamId };
    const client = await temporal.client();
    if (item.workflowId) {
      const handle = client.workflow.getHandle(item.workflowId);
      const running = await handle.describe().then((d) => d.status.name === 'RUNNING', () => false);
      if (running) {
        // The workflow applies the decision and sends the confirmation: one path for chat and API.
        await handle.signal('buttonReply', { action, transactionId, via: 'chat' });
        return { outcome: 'processed', teamId: conn.teamId, workflowId: item.workflowId };
      }
    }
    const outcome = await decideSuggestion(db, { teamId: conn.teamId, inboxItemId: item.id, transactionId, decision: action, via: 'chat' });
    const text = outcome === 'confirmed' ? 'Match confirmed: the receipt is attached to the transaction.' : outcome === 'declined' ? 'Match declined: the receipt stays in your inbox.' : 'This suggestion was already handled.';
    return { outcome: 'processed', teamId: conn.teamId, workflowId: await reply(m.from, m.id, text) };
  }

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
    events: (p) => p.entry.flatMap((e) => e.changes.filter((c) => c.field === 'messages').flatMap((c) => (c.value.messages ?? []).map((m) => ({ key: m.id, type: m.type, event: m })))),
    async handle({ event: m }) {
      if (m.type === 'text' && m.text) return onText(m);
      if ((m.type === 'image' && m.image) || (m.type === 'document' && m.document)) return onMedia(m);
      if (m.type === 'interactive') return onButton(m);
      return { outcome: 'ignored' };
    },
  };
}

/** GET /webhook/messaging: the provider's subscription handshake. */
export function messagingVerification(router: Router<AppState>, deps: ApiDeps) {
  router.get('/webhook/messaging', (ctx) => {
    const q = ctx.query;
    const token = typeof q['hub.verify_token'] === 'string' ? q['hub.verify_token'] : '';
    if (q['hub.mode'] !== 'subscribe' || !token || !safeEqual(token, deps.config.MESSAGING_VERIFY_TOKEN)) throw forbidden('Verification token mismatch');
    ctx.type = 'text/plain';
    ctx.body = String(q['hub.challenge'] ?? '');
  });
}
