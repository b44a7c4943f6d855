import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort, tcpAnswers } from '../../scripts/lib/ports';
import { spawnTs } from '../support/processes';
import { startEcbFake } from '../fakes/ecb';

/**
 * The fresh-machine path of `npm start`: no DATABASE_URL (embedded PostgreSQL), nothing at
 * TEMPORAL_ADDRESS (dev server from the CLI), no SMTP_URL (the mail catcher) and no PUBLIC_URL (links
 * to the local API), first run seeds the demo; then Ctrl-C stops it all.
 */
describe('npm start', () => {
  it('brings everything up, serves health, the reference page, the demo token and a mail catcher, and stops cleanly on SIGINT', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'finops-start-'));
    chmodSync(dataDir, 0o755); // the embedded PostgreSQL runs as the postgres user when we are root
    const [port, pgPort, temporalPort, uiPort, mailPort] = await Promise.all([freePort(), freePort(), freePort(), freePort(), freePort()]);
    const ecb = await startEcbFake({ '2026-11-20': { USD: 1.0512 } });
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      NODE_ENV: 'development',
      LOG_LEVEL: 'warn',
      PORT: String(port),
      DATA_DIR: dataDir,
      EMBEDDED_PG_PORT: String(pgPort),
      TEMPORAL_ADDRESS: `127.0.0.1:${temporalPort}`,
      TEMPORAL_UI_URL: `http://localhost:${uiPort}`,
      MAIL_CATCHER_PORT: String(mailPort),
      FX_RATES_URL: ecb.url,
      FX_RATES_SCHEDULE: 'true',
    };
    delete env.DATABASE_URL;
    delete env.SMTP_URL;
    delete env.PUBLIC_URL;
    delete env.WORKFLOW_BUNDLE_PATH;
    const child = spawnTs('scripts/start.ts', { env });
    let out = '';
    child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    try {
      const deadline = Date.now() + 90_000;
      while (!out.includes('Ctrl-C stops everything')) {
        if (Date.now() > deadline || child.exitCode !== null) throw new Error(`npm start did not come up:\n${out}`);
        await new Promise((r) => setTimeout(r, 250));
      }
      // Not a terminal: the token is kept out of the output (a log file) and written to a private file.
      expect(out).toContain('Session token    not printed');
      const tokenFile = path.join(dataDir, 'demo-session-token');
      expect(statSync(tokenFile).mode & 0o777).toBe(0o600);
      const token = readFileSync(tokenFile, 'utf8').trim();
      expect(token).toMatch(/^ey/);
      expect(out).not.toContain(token);
      expect(out).toContain(`API              http://localhost:${port}`);
      expect(out).toContain(`Temporal UI      http://localhost:${uiPort}`);

      const health = await fetch(`http://127.0.0.1:${port}/health`);
      expect(health.status).toBe(200);
      expect(((await health.json()) as { checks: unknown }).checks).toMatchObject({
        database: { status: 'up' },
        temporal: { status: 'up' },
      });
      expect((await fetch(`http://127.0.0.1:${port}/`)).status).toBe(200);
      const tx = await fetch(`http://127.0.0.1:${port}/transactions`, { headers: { authorization: `Bearer ${token}` } });
      expect(tx.status).toBe(200);
      expect(((await tx.json()) as { data: unknown[] }).data.length).toBeGreaterThan(0);
      expect((await fetch(`http://localhost:${uiPort}/`)).status).toBe(200);

      // No SMTP_URL: the mail catcher has the invoice the demo sends, with a public link to this API.
      expect(out).toContain(`Mail             http://127.0.0.1:${mailPort}`);
      const api = (method: string, p: string, body?: unknown) =>
        fetch(`http://127.0.0.1:${port}${p}`, {
          method,
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
      const customer = (await (await api('POST', '/customers', { name: 'Kunde GmbH', billingEmail: 'kunde@example.com' })).json()) as {
        data: { id: string };
      };
      const draft = (await (
        await api('POST', '/invoices', {
          currency: 'EUR',
          customerId: customer.data.id,
          lineItems: [{ name: 'Consulting', quantity: 1, price: 580, vatRate: 19 }],
        })
      ).json()) as { data: { id: string } };
      const sent = await api('POST', `/invoices/${draft.data.id}/send`);
      expect(sent.status).toBe(200);
      // Numbered as it is issued.
      const invoice = (await sent.json()) as { data: { id: string; invoiceNumber: string } };
      type Caught = { to: string; text: string; hasHtml: boolean; attachments: { filename: string; url: string }[] };
      let mail: Caught | undefined;
      for (const end = Date.now() + 30_000; !mail && Date.now() < end; await new Promise((r) => setTimeout(r, 250))) {
        const caught = (await (await fetch(`http://127.0.0.1:${mailPort}/api/messages`)).json()) as Caught[];
        mail = caught.find((m) => m.to === 'kunde@example.com');
      }
      expect(mail).toBeDefined();
      expect(mail!.attachments.map((a) => a.filename)).toEqual([`${invoice.data.invoiceNumber}.pdf`]);
      const pdf = await fetch(`http://127.0.0.1:${mailPort}${mail!.attachments[0].url}`);
      expect(
        Buffer.from(await pdf.arrayBuffer())
          .subarray(0, 5)
          .toString(),
      ).toBe('%PDF-');
      const link = new RegExp(`http://localhost:${port}/i/[\\w-]+`).exec(mail!.text)?.[0];
      expect(link).toBeDefined();
      const publicPage = await fetch(link!);
      expect(publicPage.status).toBe(200);
      expect(await publicPage.text()).toContain(invoice.data.invoiceNumber);
      // The worker created the daily exchange-rate schedule, whose first run fetches at once.
      for (const end = Date.now() + 20_000; ecb.state.requests === 0 && Date.now() < end;) await new Promise((r) => setTimeout(r, 250));
      expect(ecb.state.requests).toBeGreaterThan(0);

      child.kill('SIGINT');
      // 130 = 128 + SIGINT, the conventional exit status after an interrupt.
      expect([0, 130]).toContain(await exited);
      // One log stream: apart from the banner (indented lines for a person), every line is a JSON object.
      const lines = out.split('\n').filter((l) => l.trim() !== '' && !l.startsWith('  ') && !l.startsWith('npm warn'));
      const notJson = lines.filter((l) => {
        try {
          return typeof JSON.parse(l) !== 'object';
        } catch {
          return true;
        }
      });
      expect(notJson).toEqual([]);
      const messages = lines.map((l) => (JSON.parse(l) as { msg?: string }).msg);
      expect(messages).toContain('stopping');
      expect(messages).toContain('stopped');
      expect(out).not.toContain('while stopping');
      expect(out).not.toContain('Cannot polyfill');
      expect(await tcpAnswers(`127.0.0.1:${temporalPort}`)).toBe(false);
      expect(await tcpAnswers(`127.0.0.1:${pgPort}`)).toBe(false);
      expect(await tcpAnswers(`127.0.0.1:${port}`)).toBe(false);
      expect(await tcpAnswers(`127.0.0.1:${mailPort}`)).toBe(false);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      await ecb.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 150_000);
});
