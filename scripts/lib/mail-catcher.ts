import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ParsedMail } from 'mailparser';
import { startSmtpReceiver, type SmtpReceiver } from './smtp-receiver';
import { mailViewer } from './mail-viewer';

/** One message as the catcher keeps it. */
export interface CaughtMail {
  id: number;
  receivedAt: Date;
  /** The SMTP envelope: who sent it and to whom it was delivered (Bcc included). */
  envelope: { from: string; to: string[] };
  raw: Buffer;
  parsed: ParsedMail;
}

export interface MailCatcher {
  /** Where the service sends (its SMTP_URL). */
  smtpUrl: string;
  /** Where a person reads what it sent. */
  url: string;
  messages: readonly CaughtMail[];
  close(): Promise<void>;
}

/** The newest this many messages are kept; a demo left running for days stays small. */
const KEEP = 500;

/**
 * `npm start`'s mail catcher, for a machine with no mail server: an SMTP server that keeps every
 * message in memory and delivers none, and a web page to read them (HTML and text parts,
 * attachments to download). Both on loopback. A port already taken (another catcher, another
 * checkout) gives way to a free one, which `smtpUrl` and `url` then name.
 */
export async function startMailCatcher(opts: { host?: string; smtpPort: number; httpPort: number }): Promise<MailCatcher> {
  const host = opts.host ?? '127.0.0.1';
  const messages: CaughtMail[] = [];
  let nextId = 1;
  const onMail: Parameters<typeof startSmtpReceiver>[0]['onMail'] = ({ from, to, raw, parsed }) => {
    messages.push({ id: nextId++, receivedAt: new Date(), envelope: { from, to }, raw, parsed });
    if (messages.length > KEEP) messages.splice(0, messages.length - KEEP);
  };
  const smtp = await orAnyPort(opts.smtpPort, (port) => startSmtpReceiver({ host, port, onMail }));
  const web = http.createServer(mailViewer(() => messages));
  let httpPort: number;
  try {
    httpPort = await orAnyPort(opts.httpPort, (port) => listen(web, host, port));
  } catch (err) {
    await smtp.close();
    throw err;
  }
  return {
    smtpUrl: smtp.url,
    url: `http://${host}:${httpPort}`,
    messages,
    async close() {
      web.closeAllConnections();
      await Promise.all([new Promise((resolve) => web.close(resolve)), smtp.close()]);
    },
  };
}

async function orAnyPort<T extends SmtpReceiver | number>(port: number, start: (port: number) => Promise<T>): Promise<T> {
  try {
    return await start(port);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE' || port === 0) throw err;
    return start(0);
  }
}

function listen(server: http.Server, host: string, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}
