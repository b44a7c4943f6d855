import { z } from 'zod';
import { safeEqual } from '../../shared/domain/crypto/tokens';
import { keepEmailAttachment, receiveEmailAttachment, type EmailAttachment } from '../../shared/domain/receipts/email';
import { findTeamByInboxId } from '../../shared/domain/teams/inbox-id';
import { notFound } from '../../shared/errors';
import type { ApiDeps } from '../deps';
import type { WebhookSpec } from './pipeline';

const payload = z.object({
  MessageID: z.string().min(1),
  OriginalRecipient: z.string().optional(),
  To: z.string().optional(),
  FromFull: z.object({ Email: z.string(), Name: z.string().optional() }).loose(),
  Subject: z.string().optional(),
  Attachments: z
    .array(z.object({ Name: z.string(), Content: z.string(), ContentType: z.string(), ContentLength: z.number().optional() }).loose())
    .default([]),
});
type Payload = z.infer<typeof payload>;
type Attachment = EmailAttachment;

const address = (s: string) => (/<([^>]+)>/.exec(s)?.[1] ?? s).trim().toLowerCase();

/** POST /webhook/inbox (Postmark inbound JSON) behind HTTP Basic credentials and an optional IP allow-list. */
export function inboxWebhook(deps: ApiDeps): WebhookSpec<Payload, Attachment> {
  const { db, config } = deps;
  const ourSender = address(config.MAIL_FROM);
  const inboxIdOf = (p: Payload) => {
    const to = address(p.OriginalRecipient ?? p.To ?? '');
    const [local, domain] = to.split('@');
    return domain === config.INBOX_DOMAIN.toLowerCase() ? local : null;
  };

  return {
    provider: 'inbox',
    maxBytes: 25 * 1024 * 1024,
    // Credentials are in the headers: checked before up to 25 MB of body is read.
    preauthorize(req) {
      if (config.INBOX_WEBHOOK_ALLOWED_IPS.length && !config.INBOX_WEBHOOK_ALLOWED_IPS.includes(req.ip)) return false;
      const basic = /^Basic\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
      if (!basic) return false;
      const [user, ...rest] = Buffer.from(basic, 'base64').toString('utf8').split(':');
      return safeEqual(user, config.INBOX_WEBHOOK_USERNAME) && safeEqual(rest.join(':'), config.INBOX_WEBHOOK_PASSWORD);
    },
    verify: () => true,
    schema: payload,
    async precheck(p) {
      const inboxId = inboxIdOf(p);
      if (!inboxId || !(await findTeamByInboxId(db, inboxId))) throw notFound('No inbox with that address');
    },
    async events(p) {
      const inboxId = inboxIdOf(p); // never null here: precheck has refused those
      // Mail we sent ourselves (a bounce or an auto-reply loop) is acknowledged and dropped.
      if (!inboxId || address(p.FromFull.Email) === ourSender) return [];
      return Promise.all(
        p.Attachments.map(async (a) => ({
          key: `${p.MessageID}:${a.Name}`,
          type: 'inbound.attachment',
          event: {
            inboxId,
            reference: `${p.MessageID}:${a.Name}`,
            fileName: a.Name,
            mimeType: a.ContentType,
            sender: p.FromFull.Email,
            storedKey: await keepEmailAttachment(deps, { inboxId, mimeType: a.ContentType, bytes: Buffer.from(a.Content, 'base64') }),
          },
        })),
      );
    },
    handle: ({ event }) => receiveEmailAttachment(deps, event),
  };
}
