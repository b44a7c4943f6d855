/**
 * A provider answered that it did not take the message (an error status, a refused SMTP command).
 * Distinct from a timeout or a broken connection, after which the message may well have gone out:
 * only this kind of failure lets a retry send again at once.
 */
export class NotDeliveredError extends Error {
  constructor(
    readonly provider: string,
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'NotDeliveredError';
  }
}

/** Failures of the connection itself: the request never reached the provider. */
const NEVER_CONNECTED = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

/**
 * True when a send that threw certainly delivered nothing: the provider said so, or it was never
 * reached. A timeout, a reset or a closed socket after the request was written is not proof.
 */
export function certainlyNotDelivered(err: unknown): boolean {
  if (err instanceof NotDeliveredError) return true;
  if (typeof err !== 'object' || err === null) return false;
  const e = err as { code?: unknown; responseCode?: unknown; cause?: { code?: unknown } };
  // nodemailer: the SMTP server answered a command with a 4xx/5xx reply, so the mail was not accepted.
  if (typeof e.responseCode === 'number' && e.responseCode >= 400) return true;
  return NEVER_CONNECTED.has(String(e.code)) || NEVER_CONNECTED.has(String(e.cause?.code));
}
