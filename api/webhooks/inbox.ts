import { createHash } from 'node:crypto';
import { TypedSearchAttributes } from '@temporalio/common';
import { WorkflowIdReusePolicy } from '@temporalio/client';
import { z } from 'zod';
import { safeEqual } from '../../shared/domain/crypto/tokens';
import { notFound } from '../../shared/errors';
import { workflowIds } from '../../shared/temporal/names';
import { searchAttributeKeys } from '../../shared/temporal/search-attributes';
import type { receiptIngestion } from '../../workflows';
import type { ApiDeps } from '../deps';
import { SUPPORTED_TYPES } from './messaging';
import type { WebhookSpec } from './pipeline';

const payload = z.object({
  MessageID: z.string().min(1),
  OriginalRecipient: z.string().optional(),
  To: z.string().optional(),
  FromFull: z.object({ Email: z.string(), Name: z.string().optional() }).passthrough(),
  Subject: z.string().optional(),
  Attachments: z.array(z.object({ Name: z.string(), Content: z.string(), ContentType: z.string(), ContentLength: z.number().optional() }).passthrough()).default([]),
});
type Payload = z.infer<typeof payload>;
type Attachment = Payload['Attachments'][number] & { messageId: string; from: string; inboxId: string | null };

const address = (s: string) => (/<([^>]+)>/.exec(s)?.[1] ?? s).trim().toLowerCase();

/** POST /webhook/inbox (Postmark inbound JSON) behind HTTP Basic credentials and an optional IP allow-list. */
export function inboxWebhook(deps: ApiDeps): WebhookSpec<Payload, Attachment> {
  const { db, config, temporal, storage } = deps;
  const ourSender = address(config.MAIL_FROM);
  const inboxIdOf = (p: Payload) => {
    const to = address(p.OriginalRecipient ?? p.To ?? '');
    const [local, domain] = to.split('@');
    return domain === config.INBOX_DOMAIN.toLowerCase() ? local : null;
  };

  return {
    provider: 'inbox',
    maxBytes: 25 * 1024 * 1024,
    verify(req) {
      if (config.INBOX_WEBHOOK_ALLOWED_IPS.length && !config.INBOX_WEBHOOK_ALLOWED_IPS.includes(req.ip)) return false;
      const basic = /^Basic\s+(\S+)$/i.exec(String(req.headers.authorization ?? ''))?.[1];
      if (!basic) return false;
      const [user, ...rest] = Buffer.from(basic, 'base64').toString('utf8').split(':');
      return safeEqual(user, config.INBOX_WEBHOOK_USERNAME) && safeEqual(rest.join(':'), config.INBOX_WEBHOOK_PASSWORD);
    },
    schema: payload,
    async precheck(p) {
      const inboxId = inboxIdOf(p);
      if (!inboxId || !(await db('teams').where({ inboxId }).first('id'))) throw notFound('No inbox with that address');
    },
    // Mail we sent ourselves (a bounce or an auto-reply loop) is acknowledged and dropped.
    events: (p) =>
      address(p.FromFull.Email) === ourSender
        ? []
        : p.Attachments.map((a) => ({ key: `${p.MessageID}:${a.Name}`, type: 'inbound.attachment', event: { ...a, messageId: p.MessageID, from: p.FromFull.Email, inboxId: inboxIdOf(p) } })),
    async handle({ key, event: a }) {
      const team = await db('teams').where({ inboxId: a.inboxId }).first();
      if (!SUPPORTED_TYPES.includes(a.ContentType)) return { outcome: 'ignored', teamId: team.id };
      // Stored here because 25 MB cannot travel in a workflow's input; content-addressed, so a redelivery rewrites the same file.
      const bytes = Buffer.from(a.Content, 'base64');
      const storedKey = `${team.id}/incoming/${createHash('sha256').update(bytes).digest('hex')}`;
      await storage.put(storedKey, bytes);
      const workflowId = workflowIds.receipt(team.id, key);
      const client = await temporal.client();
      await client.workflow
        .start<typeof receiptIngestion>('receiptIngestion', {
          taskQueue: temporal.options.taskQueue,
          workflowId,
          workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
          typedSearchAttributes: new TypedSearchAttributes([{ key: searchAttributeKeys.TeamId, value: team.id }]),
          args: [{ teamId: team.id, source: 'email', reference: key, storedKey, mimeType: a.ContentType, fileName: a.Name, sender: a.from, workflowId, decisionTimeoutMs: config.RECEIPT_DECISION_TIMEOUT }],
        })
        .catch((err) => {
          if ((err as Error).name !== 'WorkflowExecutionAlreadyStartedError') throw err;
        });
      return { outcome: 'processed', teamId: team.id, workflowId };
    },
  };
}
