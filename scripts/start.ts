import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, openSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import exitHook from 'async-exit-hook';
import { startApi } from '../api/main';
import { ConfigError, loadConfig, type Config } from '../shared/config';
import { createDb, migrateLatest } from '../shared/db/knex';
import { devServerDynamicConfigArgs } from '../shared/temporal/dev-server';
import { devServerSearchAttributeArgs } from '../shared/temporal/search-attributes';
import { PROJECT_ROOT } from '../shared/paths';
import { startWorker } from '../worker/main';
import { installTemporalRuntime } from '../worker/temporal-logging';
import { createLogger } from '../shared/logger';
import { ensureDemo } from './lib/demo';
import { ensureDatabase, startEmbeddedPostgres } from './lib/embedded-postgres';
import { tcpAnswers } from './lib/ports';
import { findOrInstallTemporalCli } from './lib/temporal-cli';
import { startMailCatcher, type MailCatcher } from './lib/mail-catcher';

/**
 * `npm start`: the whole service on one machine. Brings up what is missing (an embedded PostgreSQL
 * when DATABASE_URL is unset, a Temporal dev server when TEMPORAL_ADDRESS does not answer, a mail
 * catcher when SMTP_URL is unset), migrates, seeds a demo team on first run, then runs the API and a
 * worker in this process. Ctrl-C stops it all.
 */
const ROOT = PROJECT_ROOT;
// The launcher's progress goes through the same logger as everything else (pretty at a terminal).
const launcher = createLogger(
  { LOG_LEVEL: 'info', LOG_FORMAT: process.stdout.isTTY && !process.env.LOG_FORMAT ? 'pretty' : 'json' },
  { process: 'start' },
);
const say = (m: string) => launcher.info(m);
/** The port of SMTP_URL's default, so that a worker started on its own beside `npm start` reaches the catcher too. */
const DEFAULT_SMTP_PORT = 1025;

async function main() {
  try {
    process.loadEnvFile(path.join(ROOT, '.env'));
  } catch {
    // no .env: defaults and the environment apply
  }
  // A person at a terminal reads colours; a pipe or a log collector gets JSON lines.
  if (!process.env.LOG_FORMAT && process.stdout.isTTY) process.env.LOG_FORMAT = 'pretty';
  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      say(err.message);
      process.exit(1);
    }
    throw err;
  }
  installTemporalRuntime(createLogger(config, { process: 'worker' }));
  const DATA = path.resolve(ROOT, config.DATA_DIR);
  mkdirSync(DATA, { recursive: true });
  const stops: Array<() => Promise<void>> = [];

  let databaseUrl = config.DATABASE_URL;
  if (!databaseUrl) {
    say(
      `DATABASE_URL is unset: starting an embedded PostgreSQL on port ${config.EMBEDDED_PG_PORT} (data in ${path.join(DATA, 'postgres')})`,
    );
    const pg = await startEmbeddedPostgres({ dataDir: path.join(DATA, 'postgres'), port: config.EMBEDDED_PG_PORT, persistent: true });
    await ensureDatabase(pg.url('postgres'), 'finops');
    databaseUrl = pg.url('finops');
    config = { ...config, DATABASE_URL: databaseUrl };
    stops.push(() => pg.stop());
  }

  if (!(await tcpAnswers(config.TEMPORAL_ADDRESS))) {
    const temporal = await startTemporalDevServer(config, DATA);
    stops.push(() => stopChild(temporal));
  } else {
    say(`using the Temporal server at ${config.TEMPORAL_ADDRESS}`);
  }

  // Nothing listens at the default SMTP address on a fresh machine: without a catcher, every email the
  // demo sends would wait for retries that never succeed.
  let mail: MailCatcher | undefined;
  if (!process.env.SMTP_URL) {
    const catcher = await startMailCatcher({ smtpPort: DEFAULT_SMTP_PORT, httpPort: config.MAIL_CATCHER_PORT });
    mail = catcher;
    config = { ...config, SMTP_URL: catcher.smtpUrl };
    stops.push(() => catcher.close());
    say(`SMTP_URL is unset: mail goes to the catcher at ${catcher.smtpUrl}, to read at ${catcher.url}`);
  }

  const db = createDb({ url: databaseUrl, poolMax: 2, logger: launcher });
  const applied = await migrateLatest(db);
  say(applied.length ? `applied migrations: ${applied.join(', ')}` : 'database schema is up to date');
  const demo = await ensureDemo(db, config);
  await db.destroy();

  const worker = await startWorker(config);
  stops.unshift(() => worker.stop());
  const api = await startApi(config);
  stops.unshift(() => api.stop());

  // A session token is a credential (apis.all for 24 h): a person at a terminal sees it; a pipe into a log file never does.
  const tokenFile = path.join(DATA, 'demo-session-token');
  let tokenLine = demo.sessionToken;
  if (!process.stdout.isTTY) {
    writeFileSync(tokenFile, `${demo.sessionToken}\n`, { mode: 0o600 });
    tokenLine = `not printed (output is not a terminal): see ${tokenFile}`;
  }
  const banner = [
    '',
    '  Finops is running.',
    `  API              ${api.url}`,
    `  API reference    ${api.url}/`,
    `  Health           ${api.url}/health (probes: ${api.url}/livez, ${api.url}/readyz)`,
    `  Worker probes    ${worker.probesUrl}/livez, ${worker.probesUrl}/readyz`,
    `  Temporal UI      ${config.TEMPORAL_UI_URL}`,
    mail
      ? `  Mail             ${mail.url}   (every email sent, caught: SMTP_URL is unset)`
      : `  Mail             sent through ${redactedSmtpUrl(config.SMTP_URL)}`,
    `  Links in emails  ${config.PUBLIC_URL ?? '(none: set PUBLIC_URL)'}`,
    '',
    `  Demo team        ${demo.teamName} (inbox id ${demo.inboxId})${demo.created ? ' — created now' : ''}`,
    `  Demo user        ${demo.email}`,
    `  Session token    ${tokenLine}`,
    '',
    `  Try: curl -H "Authorization: Bearer <session token>" ${api.url}/transactions`,
    '  Ctrl-C stops everything.',
    '',
  ];
  process.stdout.write(banner.join('\n') + '\n');

  // embedded-postgres registers an async-exit-hook that stops PostgreSQL and exits on SIGINT/SIGTERM;
  // registering ours there too makes the API, worker and Temporal stop in the same shutdown.
  // Its own limit (10 s) would end the process before the API and the worker have drained (each has its grace).
  exitHook.forceExitTimeout(config.SHUTDOWN_GRACE + config.WORKER_SHUTDOWN_GRACE + 15_000);
  exitHook((done) => {
    say('stopping');
    void (async () => {
      for (const stop of stops) await stop().catch((err: unknown) => say(`while stopping: ${(err as Error).message}`));
      say('stopped');
    })().finally(done);
  });
}

async function startTemporalDevServer(config: Config, dataDir: string): Promise<ChildProcess> {
  const cli = await findOrInstallTemporalCli({ log: say });
  const [host, port] = splitAddress(config.TEMPORAL_ADDRESS);
  const uiPort = new URL(config.TEMPORAL_UI_URL).port || '8233';
  say(
    `no Temporal server at ${config.TEMPORAL_ADDRESS}: starting the dev server (${cli}), state in ${path.join(dataDir, 'temporal.db')}, log in ${path.join(dataDir, 'temporal.log')}`,
  );
  const log = openSync(path.join(dataDir, 'temporal.log'), 'a');
  const child = spawn(
    cli,
    [
      'server',
      'start-dev',
      '--db-filename',
      path.join(dataDir, 'temporal.db'),
      '--ip',
      host,
      '--port',
      port,
      '--ui-port',
      uiPort,
      '--namespace',
      config.TEMPORAL_NAMESPACE,
      '--log-level',
      'warn',
      ...devServerSearchAttributeArgs(),
      ...devServerDynamicConfigArgs(),
    ],
    { stdio: ['ignore', log, log] },
  );
  const exited = new Promise<never>((_, reject) =>
    child.once('exit', (code) =>
      reject(new Error(`the Temporal dev server exited with code ${code}; see ${path.join(dataDir, 'temporal.log')}`)),
    ),
  );
  const deadline = Date.now() + 60_000;
  while (!(await Promise.race([tcpAnswers(config.TEMPORAL_ADDRESS), exited]))) {
    if (Date.now() > deadline)
      throw new Error(`the Temporal dev server did not answer within 60 s; see ${path.join(dataDir, 'temporal.log')}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  exited.catch(() => undefined);
  return child;
}

/** Where mail goes, without the password a URL may carry. */
function redactedSmtpUrl(smtpUrl: string): string {
  try {
    const u = new URL(smtpUrl);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '(SMTP_URL)';
  }
}

function splitAddress(address: string): [string, string] {
  const i = address.lastIndexOf(':');
  return [address.slice(0, i) || '127.0.0.1', address.slice(i + 1)];
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

main().catch((err: unknown) => {
  say(`failed to start: ${err instanceof Error && err.stack ? err.stack : String(err)}`);
  process.exit(1);
});
