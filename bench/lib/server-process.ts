import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { PROJECT_ROOT } from '../../shared/paths';

/**
 * Starts the API under test as its own node process (not through tsx's launcher, so its pid is the
 * server's and /proc CPU figures are its own). With BENCH_CPU_PROF=<dir> it also writes a V8 CPU
 * profile there when it exits, to open in Chrome DevTools or speedscope.
 */
export function spawnApi(env: NodeJS.ProcessEnv): ChildProcess {
  const profile = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(process.env.BENCH_CPU_PROF)}`] : [];
  return spawn(process.execPath, [...profile, '--import', 'tsx', path.join(PROJECT_ROOT, 'api', 'main.ts')], { env, stdio: 'inherit' });
}
