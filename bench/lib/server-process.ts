import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { PROJECT_ROOT } from '../../shared/paths';

/**
 * Starts the API under test as its own node process (not through tsx's launcher, so its pid is the
 * server's and /proc CPU figures are its own), configured as in production but with logging at
 * `warn`, no rate limit in the way of the load, and Temporal unreachable (what a bench times never
 * waits on it). With BENCH_CPU_PROF=<dir> it also writes a V8 CPU profile there when it exits, to
 * open in Chrome DevTools or speedscope.
 */
export function spawnApi(opts: { databaseUrl: string; port: number; env?: NodeJS.ProcessEnv }): ChildProcess {
  const profile = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(process.env.BENCH_CPU_PROF)}`] : [];
  return spawn(process.execPath, [...profile, '--import', 'tsx', path.join(PROJECT_ROOT, 'api', 'main.ts')], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      AUTH_JWT_SECRET: 'x'.repeat(32),
      ENCRYPTION_KEY: '1'.repeat(64),
      DATABASE_URL: opts.databaseUrl,
      PORT: String(opts.port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      RATE_LIMIT_PER_MINUTE: '100000000',
      TEMPORAL_ADDRESS: '127.0.0.1:1',
      ...opts.env,
    },
    stdio: 'inherit',
  });
}
