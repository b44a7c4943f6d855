import nodemailer from 'nodemailer';
import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /**
   * A fixed Message-ID for a mail that may be sent again after a crash (`<id@host>`): mail clients
   * and servers treat two copies with one Message-ID as one message.
   */
  messageId?: string;
  /** Where the recipient's answer goes (the team, for an invoice), when not the sender. */
  replyTo?: string;
  attachments?: { filename: string; content: Buffer; contentType: string }[];
}

export interface Mailer {
  send(message: MailMessage): Promise<{ messageId: string }>;
  close(): void;
}

/** SMTP through nodemailer; the URL carries host, port, TLS and credentials (`smtps://user:pass@host:465`). */
export function createMailer(smtpUrl: string, from: string): Mailer {
  const transport = nodemailer.createTransport(smtpUrl);
  const server = smtpServer(smtpUrl);
  // SMTP has no instrumentation of its own: one client span per message (a no-op while tracing is off).
  const tracer = trace.getTracer('finops-mail');
  return {
    send(message) {
      return tracer.startActiveSpan('smtp send', { kind: SpanKind.CLIENT, attributes: server }, async (span) => {
        try {
          const info = await transport.sendMail({ from, ...message });
          return { messageId: info.messageId };
        } catch (err) {
          span.recordException(err as Error);
          span.setStatus({ code: SpanStatusCode.ERROR, message: (err as Error).message });
          throw err;
        } finally {
          span.end();
        }
      });
    },
    close: () => transport.close(),
  };
}

/** Host and port for the span; never the credentials the URL may carry. */
function smtpServer(smtpUrl: string): Record<string, string | number> {
  try {
    const { hostname, port } = new URL(smtpUrl);
    return { 'server.address': hostname, ...(port ? { 'server.port': Number(port) } : {}) };
  } catch {
    return {};
  }
}
