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
      signal: AbortSignal.timeout(15_000),
    });
    const json = (await res.json().catch(() => ({}))) as any;
    if (!res.ok) throw new Error(`messaging answered ${res.status}: ${json?.error?.message ?? ''}`);
    return { messageId: json?.messages?.[0]?.id ?? null };
  }

  return {
    sendText: (to: string, body: string) => send(to, { type: 'text', text: { preview_url: false, body } }),
    sendReaction: (to: string, messageId: string, emoji: string) => send(to, { type: 'reaction', reaction: { message_id: messageId, emoji } }),
    sendButtons: (to: string, body: string, buttons: Array<{ id: string; title: string }>) =>
      send(to, { type: 'interactive', interactive: { type: 'button', body: { text: body }, action: { buttons: buttons.map((b) => ({ type: 'reply', reply: b })) } } }),
    async downloadMedia(mediaId: string): Promise<{ bytes: Buffer; mimeType: string }> {
      const meta = await fetch(`${base}/${encodeURIComponent(mediaId)}`, { headers: auth, signal: AbortSignal.timeout(15_000) });
      if (!meta.ok) throw new Error(`messaging media ${mediaId}: ${meta.status}`);
      const { url, mime_type } = (await meta.json()) as { url: string; mime_type: string };
      const file = await fetch(url, { headers: auth, signal: AbortSignal.timeout(60_000) });
      if (!file.ok) throw new Error(`messaging media download: ${file.status}`);
      return { bytes: Buffer.from(await file.arrayBuffer()), mimeType: mime_type };
    },
  };
}

export type MessagingClient = ReturnType<typeof createMessagingClient>;
