import { z } from 'zod';
import { NotDeliveredError } from './not-delivered';

/** The field read from a failure; a body we cannot read is reported by its status alone. */
const errorBody = z.object({ error: z.object({ message: z.string() }) });

/** The id of the message sent, when the answer names one. */
const sentBody = z.object({ messages: z.tuple([z.object({ id: z.string() })], z.unknown()) });

const mediaBody = z.object({ url: z.string(), mime_type: z.string() });

/**
 * messaging speaks the WhatsApp Cloud API: messages are POSTed to `/{phone-number-id}/messages`
 * with a Bearer token; media is `GET /{media-id}` → `{url}` → bytes (same token).
 */
export function createMessagingClient(opts: { baseUrl: string; accessToken: string; phoneNumberId: string }) {
  const auth = { authorization: `Bearer ${opts.accessToken}` };
  const base = opts.baseUrl.replace(/\/$/, '');

  async function send(to: string, message: Record<string, unknown>): Promise<{ messageId: string | null }> {
    const res = await fetch(`${base}/${opts.phoneNumberId}/messages`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ messaging_product: 'whatsapp', recipient_type: 'individual', to, ...message }),
      // Generous: giving up on a send the provider then completes is how a person gets a message twice.
      signal: AbortSignal.timeout(45_000),
    });
    const json: unknown = await res.json().catch(() => ({}));
    if (!res.ok) {
      const failure = errorBody.safeParse(json);
      throw new NotDeliveredError(
        'messaging',
        res.status,
        `messaging answered ${res.status}: ${failure.success ? failure.data.error.message : ''}`,
      );
    }
    const sent = sentBody.safeParse(json);
    return { messageId: sent.success ? sent.data.messages[0].id : null };
  }

  return {
    sendText: (to: string, body: string) => send(to, { type: 'text', text: { preview_url: false, body } }),
    sendReaction: (to: string, messageId: string, emoji: string) =>
      send(to, { type: 'reaction', reaction: { message_id: messageId, emoji } }),
    sendButtons: (to: string, body: string, buttons: Array<{ id: string; title: string }>) =>
      send(to, {
        type: 'interactive',
        interactive: { type: 'button', body: { text: body }, action: { buttons: buttons.map((b) => ({ type: 'reply', reply: b })) } },
      }),
    async downloadMedia(mediaId: string): Promise<{ bytes: Buffer; mimeType: string }> {
      const meta = await fetch(`${base}/${encodeURIComponent(mediaId)}`, { headers: auth, signal: AbortSignal.timeout(15_000) });
      if (!meta.ok) throw new Error(`messaging media ${mediaId}: ${meta.status}`);
      const { url, mime_type } = mediaBody.parse(await meta.json());
      const file = await fetch(url, { headers: auth, signal: AbortSignal.timeout(60_000) });
      if (!file.ok) throw new Error(`messaging media download: ${file.status}`);
      return { bytes: Buffer.from(await file.arrayBuffer()), mimeType: mime_type };
    },
  };
}

export type MessagingClient = ReturnType<typeof createMessagingClient>;
