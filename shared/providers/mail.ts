import nodemailer from 'nodemailer';

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
  return {
    async send(message) {
      const info = await transport.sendMail({ from, ...message });
      return { messageId: info.messageId };
    },
    close: () => transport.close(),
  };
}
