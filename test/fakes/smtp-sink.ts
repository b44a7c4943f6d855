import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface CapturedMail {
  from: string;
  to: string[];
  raw: string;
  subject: string;
  /** The decoded plain-text body. */
  text: string;
}

export interface SmtpSink {
  port: number;
  url: string;
  messages: CapturedMail[];
  /** Recipients answered "450 try again later" while they are in the set (a mailbox that is briefly unavailable). */
  refuse: Set<string>;
  /** Resolves with the first message (from now on or already captured) that matches. */
  waitFor(match: (m: CapturedMail) => boolean, timeoutMs?: number): Promise<CapturedMail>;
  close(): Promise<void>;
}

/** A real SMTP server on loopback that keeps what it receives. */
export async function startSmtpSink(port = 0): Promise<SmtpSink> {
  const messages: CapturedMail[] = [];
  const waiters: Array<() => void> = [];
  const refuse = new Set<string>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (!refuse.has(address.address)) return callback();
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
            messages.push({
              from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
              to: session.envelope.rcptTo.map((r) => r.address),
              raw: raw.toString('utf8'),
              subject: parsed.subject ?? '',
              text: parsed.text ?? '',
            });
            waiters.splice(0).forEach((w) => w());
            callback();
          },
          (err: unknown) => callback(err instanceof Error ? err : new Error('unparseable mail', { cause: err })),
        );
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const actual = (server.server.address() as { port: number }).port;
  return {
    port: actual,
    url: `smtp://127.0.0.1:${actual}`,
    messages,
    refuse,
    waitFor(match, timeoutMs = 20_000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('no matching mail arrived')), timeoutMs);
        const check = () => {
          const found = messages.find(match);
          if (found) {
            clearTimeout(timer);
            resolve(found);
          } else waiters.push(check);
        };
        check();
      });
    },
    close: () => new Promise((r) => server.close(() => r())),
  };
}
