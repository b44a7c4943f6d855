import http from 'node:http';
import { tcpAnswers } from '../../scripts/lib/ports';
import { startApiProcess, type Running } from '../support/chaos/processes';
import { withTestDatabase } from '../support/database';
import { eventually } from '../support/eventually';
import { createTeamAndOwner } from '../support/fixtures';

/**
 * SIGTERM to an API process (a deploy, a scale-in): it stops accepting at once, lets the requests in
 * flight finish within SHUTDOWN_GRACE, then exits 0. The slow request is a POST whose body arrives
 * in two halves, the signal between them.
 */
const started: Running[] = [];
const tdb = withTestDatabase({
  tearDown: async () => {
    for (const api of started) await api.kill();
  },
});

async function apiProcess(env: Record<string, string>) {
  const api = await startApiProcess({ ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'warn', DATABASE_URL: tdb.url, ...env });
  started.push(api);
  const exited = new Promise<{ code: number | null; at: number }>((resolve) =>
    api.child.once('exit', (code) => resolve({ code, at: Date.now() })),
  );
  return { api, exited, address: new URL(api.url).host };
}

/** A POST /tags whose body is sent up to its middle: `finish()` sends the rest, `response` is the answer. */
function halfSentTag(url: string, token: string, name: string) {
  const body = JSON.stringify({ name });
  const middle = Math.floor(body.length / 2);
  const req = http.request(`${url}/tags`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
  });
  const response = new Promise<{ status: number; body: string }>((resolve, reject) => {
    req.once('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.once('error', reject);
  });
  req.write(body.slice(0, middle));
  return { response, finish: () => req.end(body.slice(middle)) };
}

describe('API shutdown', () => {
  it('on SIGTERM refuses new connections, finishes the request in flight, and exits 0', async () => {
    const { sessionToken, team } = await createTeamAndOwner(tdb.db, 'Drain');
    const { api, exited, address } = await apiProcess({ SHUTDOWN_GRACE: '20s' });
    const slow = halfSentTag(api.url, sessionToken, 'sent-while-stopping');
    await new Promise((r) => setTimeout(r, 300));

    api.child.kill('SIGTERM');
    await eventually(async () => !(await tcpAnswers(address)), 10_000, 'the API to stop accepting');
    expect(api.child.exitCode).toBeNull();

    slow.finish();
    const res = await slow.response;
    expect(res.status).toBe(201);
    expect(JSON.parse(res.body)).toMatchObject({ data: { name: 'sent-while-stopping' } });
    expect((await exited).code).toBe(0);
    expect(await tdb.db('tags').where({ teamId: team.id }).pluck('name')).toEqual(['sent-while-stopping']);
  }, 60_000);

  it('cuts a request that outlasts SHUTDOWN_GRACE and exits', async () => {
    const { sessionToken } = await createTeamAndOwner(tdb.db, 'Cut');
    const { api, exited } = await apiProcess({ SHUTDOWN_GRACE: '1s' });
    const stuck = halfSentTag(api.url, sessionToken, 'never-finished');
    const failed = stuck.response.then(
      () => 'answered',
      () => 'cut',
    );
    await new Promise((r) => setTimeout(r, 300));

    const signalled = Date.now();
    api.child.kill('SIGTERM');
    const { code, at } = await exited;
    expect(code).toBe(0);
    // The grace, then the background passes and the pool closing.
    expect(at - signalled).toBeLessThan(4000);
    expect(await failed).toBe('cut');
  }, 60_000);
});
