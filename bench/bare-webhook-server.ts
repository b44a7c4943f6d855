import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import { Pool } from 'pg';
import { serveBare } from './lib/bare-server';

/**
 * The baseline for bench/webhooks.ts: the same work as POST /webhook/bank-b — check the
 * `t=…,v1=…` HMAC over the raw body, parse the JSON, record the event (the same insert), look its
 * enrollment up (the same query) and record the outcome — served by plain `http` + `pg`, one
 * statement after another per delivery, with no framework, no validation and no grouping. Not part
 * of the product.
 */
const [port, url, secret] = [Number(process.argv[2]), process.argv[3], process.argv[4]];
const pool = new Pool({ connectionString: url, max: 10, options: '-c jit=off' });

const CLAIM = `insert into webhook_events (provider, event_key, event_type, payload) values ($1, $2, $3, $4::jsonb)
  on conflict (provider, event_key) do update set outcome = 'received', error = null, received_at = now()
    where webhook_events.outcome = 'failed'
  returning id`;
const LOOKUP = 'select id, team_id from bank_connections where provider = $1 and reference_id = $2';
const OUTCOME = `update webhook_events set outcome = $2, team_id = $3, processed_at = now(), next_attempt_at = null where id = $1`;

function signed(header: string, raw: string): boolean {
  const parts = Object.fromEntries(header.split(',').map((p) => p.split('=', 2) as [string, string])) as Record<string, string | undefined>;
  const expected = createHmac('sha256', secret).update(`${parts.t}.${raw}`).digest();
  const given = Buffer.from(String(parts.v1), 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected) && Math.abs(Date.now() / 1000 - Number(parts.t)) < 180;
}

async function answer(req: http.IncomingMessage, res: http.ServerResponse) {
  try {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    if (!signed(String(req.headers['bank-b-signature'] ?? ''), raw)) {
      res.writeHead(401);
      res.end();
      return;
    }
    const event = JSON.parse(raw) as { id: string; type: string; payload: { enrollment_id: string } };
    const claimed = await pool.query<{ id: string }>({ name: 'claim', text: CLAIM, values: ['bank-b', event.id, event.type, raw] });
    const id = claimed.rows[0]?.id;
    if (id) {
      const found = await pool.query<{ team_id: string }>({
        name: 'lookup',
        text: LOOKUP,
        values: ['bank-b', event.payload.enrollment_id],
      });
      await pool.query({ name: 'outcome', text: OUTCOME, values: [id, 'ignored', found.rows[0]?.team_id ?? null] });
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"success":true}');
  } catch (err) {
    res.writeHead(500);
    res.end(String(err));
  }
}

serveBare(port, answer);
