import { startSmtpReceiver } from '../../scripts/lib/smtp-receiver';

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
  const receiver = await startSmtpReceiver({
    host: '127.0.0.1',
    port,
    refuse: (recipient) => refuse.has(recipient),
    onMail: ({ from, to, raw, parsed }) => {
      messages.push({ from, to, raw: raw.toString('utf8'), subject: parsed.subject ?? '', text: parsed.text ?? '' });
      waiters.splice(0).forEach((w) => w());
    },
  });
  return {
    port: receiver.port,
    url: receiver.url,
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
    close: () => receiver.close(),
  };
}
