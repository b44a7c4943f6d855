import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  /** The envelope's sender and recipients, as the SMTP client gave them (not the headers). */
  from: string;
  to: string[];
  raw: Buffer;
  parsed: ParsedMail;
}

export interface SmtpReceiver {
  port: number;
  url: string;
  close(): Promise<void>;
}

/**
 * A real SMTP server on one address that hands every message it accepts, parsed, to `onMail`: no
 * TLS, no authentication required, nothing relayed. `refuse(recipient)` answers "450 try again
 * later" for a recipient, as a mailbox that is briefly unavailable does.
 */
export async function startSmtpReceiver(opts: {
  host: string;
  port: number;
  onMail: (mail: ReceivedMail) => void;
  refuse?: (recipient: string) => boolean;
}): Promise<SmtpReceiver> {
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (!opts.refuse?.(address.address)) return callback();
      callback(Object.assign(new Error('mailbox unavailable, try again later'), { responseCode: 450 }));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks);
        // A mail that cannot be parsed is refused to the sender rather than left unanswered.
        simpleParser(raw).then(
          (parsed) => {
            opts.onMail({
              from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
              to: session.envelope.rcptTo.map((r) => r.address),
              raw,
              parsed,
            });
            callback();
          },
          (err: unknown) => callback(err instanceof Error ? err : new Error('unparseable mail', { cause: err })),
        );
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  // Once listening, an error is one client's connection failing (it hung up mid-message): that client's
  // business, and no reason to stop receiving.
  server.on('error', () => undefined);
  const { port } = server.server.address() as AddressInfo;
  return {
    port,
    url: `smtp://${opts.host}:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
