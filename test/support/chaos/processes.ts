import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { freePort, tcpAnswers } from '../../../scripts/lib/ports';
import { findOrBuildTemporalCli } from '../../../scripts/lib/temporal-cli';
import { devServerDynamicConfigArgs } from '../../../shared/temporal/dev-server';
import { devServerSearchAttributeArgs } from '../../../shared/temporal/search-attributes';
import { killHard, spawnTs } from '../processes';

/** A process of ours or a server we depend on, started for a fault scenario and torn down after it. */
export interface Running {
  url: string;
  child: ChildProcess;
  /** SIGKILL: no shutdown, no goodbye, as a crash or an OOM kill. */
  kill(): Promise<void>;
  /** A graceful stop (SIGTERM), as a deploy or an orderly restart. */
  stop(): Promise<void>;
}

async function waitFor(address: string, child: ChildProcess, what: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await tcpAnswers(address))) {
    if (child.exitCode !== null) throw new Error(`${what} exited with code ${child.exitCode}`);
    if (Date.now() > deadline) throw new Error(`${what} did not answer at ${address} within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

// CHAOS_VERBOSE=1 shows the processes' own logs, to see why a scenario went wrong.
const stdio = process.env.CHAOS_VERBOSE ? 'inherit' : 'ignore';

function running(url: string, child: ChildProcess): Running {
  return {
    url,
    child,
    kill: () => killHard(child),
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 15_000))]);
      await killHard(child);
    },
  };
}

/** An API process (`api/main.ts`, with its webhook relay) on a free port. */
export async function startApiProcess(env: NodeJS.ProcessEnv, port?: number): Promise<Running> {
  const p = port ?? (await freePort());
  const child = spawnTs('api/main.ts', { env: { ...env, PORT: String(p), HOST: '127.0.0.1' }, stdio });
  await waitFor(`127.0.0.1:${p}`, child, 'the API process');
  return running(`http://127.0.0.1:${p}`, child);
}

/** A worker process (`worker/main.ts`); it is ready once it polls, so callers wait for work to flow. */
export function startWorkerProcess(env: NodeJS.ProcessEnv): Running {
  // Scenarios run two workers on one host: each probes on a port of its own.
  return running('', spawnTs('worker/main.ts', { env: { WORKER_HEALTH_PORT: '0', ...env }, stdio }));
}

/**
 * A Temporal dev server of its own (not the suite's shared one), persisting to a file so that it can
 * be stopped and started again with its workflows intact, as a real cluster restarts.
 */
export async function startTemporalServer(opts: { port: number; dataDir: string }): Promise<Running> {
  mkdirSync(opts.dataDir, { recursive: true });
  const child = spawn(
    findOrBuildTemporalCli(),
    [
      'server',
      'start-dev',
      '--headless',
      '--db-filename',
      path.join(opts.dataDir, 'temporal.db'),
      '--ip',
      '127.0.0.1',
      '--port',
      String(opts.port),
      '--log-level',
      'error',
      ...devServerSearchAttributeArgs(),
      ...devServerDynamicConfigArgs(),
    ],
    { stdio: 'ignore' },
  );
  await waitFor(`127.0.0.1:${opts.port}`, child, 'the Temporal dev server');
  return running(`127.0.0.1:${opts.port}`, child);
}
