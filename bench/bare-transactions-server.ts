import http from 'node:http';
import { Pool } from 'pg';

/**
 * The baseline for bench/transactions.ts: the same SQL as GET /transactions, served by plain
 * `http` + `pg` with no framework, no auth and no validation. Not part of the product.
 */
const [port, url] = [Number(process.argv[2]), process.argv[3]];
const { sql, bindings } = JSON.parse(Buffer.from(process.argv[4], 'base64').toString()) as { sql: string; bindings: unknown[] };
const pool = new Pool({ connectionString: url, max: 10 });

async function answer(res: http.ServerResponse) {
  try {
    const { rows } = await pool.query(sql, bindings);
    const page = rows.slice(0, 50);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ data: page, meta: { cursor: null, hasNextPage: rows.length > 50 } }));
  } catch (err) {
    res.writeHead(500);
    res.end(String(err));
  }
}

// answer() settles every request itself, failures included: nothing is left for the server to await.
http.createServer((_req, res) => void answer(res)).listen(port, '127.0.0.1', () => process.send?.('ready'));
