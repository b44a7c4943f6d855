import { createHash } from 'node:crypto';
import http from 'node:http';
import { Pool } from 'pg';
import { serveBare } from './lib/bare-server';

/**
 * The baseline for bench/transactions.ts: the same work as GET /transactions — look the API key up
 * by its hash (the same query), then the same list SQL — served by plain `http` + `pg`, with no
 * framework, no validation, no rate limit and no cache. Not part of the product.
 */
interface Sql {
  sql: string;
  bindings: unknown[];
}
const [port, url] = [Number(process.argv[2]), process.argv[3]];
const decode = (arg: string) => JSON.parse(Buffer.from(arg, 'base64').toString()) as Sql;
const list = decode(process.argv[4]);
// The key lookup's SQL: its first binding is the key's hash (the others, the row limit, stay as built).
const auth = decode(process.argv[5]);
// The session settings the API's pool uses (shared/db/knex.ts), so both are planned and run alike.
const pool = new Pool({ connectionString: url, max: 10, options: '-c jit=off' });

async function answer(req: http.IncomingMessage, res: http.ServerResponse) {
  try {
    const key = (req.headers.authorization ?? '').replace(/^Bearer /, '');
    const found = await pool.query(auth.sql, [createHash('sha256').update(key).digest('hex'), ...auth.bindings.slice(1)]);
    if (!found.rows.length) {
      res.writeHead(401);
      res.end();
      return;
    }
    const { rows } = await pool.query(list.sql, list.bindings);
    const page = rows.slice(0, 50);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ data: page, meta: { cursor: null, hasNextPage: rows.length > 50 } }));
  } catch (err) {
    res.writeHead(500);
    res.end(String(err));
  }
}

serveBare(port, answer);
