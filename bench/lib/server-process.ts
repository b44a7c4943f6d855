import { execFileSync, fork, spawn, type ChildProcess } from 'node:child_process';
import { realpathSync } from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../../shared/paths';

/**
 * Where benches compile the API; incremental, so a build after a small change takes seconds.
 * BENCH_BUILD_DIR puts it elsewhere. A worktree whose node_modules is another checkout's (a link)
 * builds into its own `.data/bench-dist`: in the shared cache it would build into, and run, the
 * other checkout's build.
 */
const BUILD_DIR = process.env.BENCH_BUILD_DIR
  ? path.resolve(process.env.BENCH_BUILD_DIR)
  : ownsNodeModules()
    ? path.join(PROJECT_ROOT, 'node_modules', '.cache', 'bench-dist')
    : path.join(PROJECT_ROOT, '.data', 'bench-dist');

function ownsNodeModules(): boolean {
  const here = path.join(PROJECT_ROOT, 'node_modules');
  try {
    return realpathSync(here) === here;
  } catch {
    return true;
  }
}
/** Set by the first build (bench/run.ts builds once for all its benches): the build is current. */
const BUILT = 'BENCH_API_BUILT';

/**
 * The API compiled as `npm run build` compiles it, for plain node: production runs JavaScript, and tsx's
 * loader (esbuild in the process, source maps on every stack) would count against the API's memory.
 */
export function compiledApiEntry(): string {
  const entry = path.join(BUILD_DIR, 'api', 'main.js');
  if (process.env[BUILT] === entry) return entry;
  const tsc = path.join(PROJECT_ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
  const args = ['-p', path.join(PROJECT_ROOT, 'tsconfig.build.json'), '--outDir', BUILD_DIR, '--incremental'];
  execFileSync(process.execPath, [tsc, ...args, '--tsBuildInfoFile', path.join(BUILD_DIR, '.tsbuildinfo')], { stdio: 'inherit' });
  process.env[BUILT] = entry;
  return entry;
}

/**
 * Starts the API under test as its own node process running the compiled build (its pid is the
 * server's, so /proc figures are its own), configured as in production but with logging at
 * `warn`, no rate limit in the way of the load, and Temporal unreachable (what a bench times never
 * waits on it). With BENCH_CPU_PROF=<dir> it also writes a V8 CPU profile there when it exits
 * (`api.<time>.cpuprofile`, beside the bare program's), to open in Chrome DevTools or speedscope.
 * BENCH_API_NODE_ARGS adds node flags to the API alone, for a look inside one run (`--trace-gc`,
 * `--heapsnapshot-signal=SIGUSR2`), which NODE_OPTIONS would give the bench's own process too, or refuse.
 */
export function spawnApi(opts: { databaseUrl: string; port: number; env?: NodeJS.ProcessEnv }): ChildProcess {
  const profile = profileArgs('api');
  const extra = process.env.BENCH_API_NODE_ARGS?.split(/\s+/).filter(Boolean) ?? [];
  return spawn(process.execPath, [...profile, ...extra, compiledApiEntry()], {
    env: {
      ...productionEnv(opts.databaseUrl),
      PORT: String(opts.port),
      HOST: '127.0.0.1',
      RATE_LIMIT_PER_MINUTE: '100000000',
      TEMPORAL_ADDRESS: '127.0.0.1:1',
      // A free port of its own: two APIs of one bench, or of two benches, cannot both have the default.
      METRICS_PORT: '0',
      ...opts.env,
    },
    stdio: 'inherit',
  });
}

/** What the API and the worker both run with here: production mode, fixed test keys, logging at `warn`. */
const productionEnv = (databaseUrl: string): NodeJS.ProcessEnv => ({
  ...process.env,
  NODE_ENV: 'production',
  AUTH_JWT_SECRET: 'x'.repeat(32),
  ENCRYPTION_KEY: '1'.repeat(64),
  AUDIT_SIGNING_KEY: '2'.repeat(64),
  DATABASE_URL: databaseUrl,
  LOG_LEVEL: 'warn',
});

/**
 * Starts the worker as its own node process running the compiled build, as production runs it:
 * in the bench's own process its workflow tasks and activities would share one event loop with
 * the load the bench makes and the endpoints that time what arrives, and stretch all three.
 * No schedules of its own (exchange rates, retention), probes on a free port; `env` adds the rest.
 */
export function spawnWorker(opts: { databaseUrl: string; env: NodeJS.ProcessEnv }): ChildProcess {
  const entry = path.join(path.dirname(path.dirname(compiledApiEntry())), 'worker', 'main.js');
  return spawn(process.execPath, [entry], {
    env: {
      ...productionEnv(opts.databaseUrl),
      WORKER_HEALTH_PORT: '0',
      FX_RATES_SCHEDULE: 'false',
      RETENTION_SCHEDULE: 'false',
      ...opts.env,
    },
    stdio: 'inherit',
  });
}

/**
 * Starts a bench's bare comparator (a TypeScript program beside the bench) as its own process; with
 * BENCH_CPU_PROF=<dir> it writes `bare.<time>.cpuprofile` there, so the two profiles of one run can
 * be read side by side. BENCH_BARE_NODE_ARGS adds node flags to it alone, as BENCH_API_NODE_ARGS does to the API.
 */
export function spawnBare(program: string, args: string[]): ChildProcess {
  const extra = process.env.BENCH_BARE_NODE_ARGS?.split(/\s+/).filter(Boolean) ?? [];
  return fork(program, args, { execArgv: [...profileArgs('bare'), ...extra, '--import', 'tsx'], stdio: 'inherit' });
}

function profileArgs(who: 'api' | 'bare'): string[] {
  const dir = process.env.BENCH_CPU_PROF;
  return dir ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(dir)}`, `--cpu-prof-name=${who}.${Date.now()}.cpuprofile`] : [];
}
