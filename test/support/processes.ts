import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');

/**
 * Runs a TypeScript entry point (e.g. worker/main.ts) as ONE node process with the tsx loader.
 * (The tsx CLI would add a wrapper process: killing it with SIGKILL leaves the real one running,
 * which would make a "kill the worker" test prove nothing.)
 */
export function spawnTs(relativeScript: string, options: SpawnOptions = {}): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, relativeScript)], { cwd: ROOT, ...options });
}

/** Runs a TypeScript entry point to its end: its exit code and what it wrote to stdout. */
export function runTs(relativeScript: string, env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string }> {
  const child = spawnTs(relativeScript, { env, stdio: ['ignore', 'pipe', 'inherit'] });
  let stdout = '';
  child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout })));
}

/** SIGKILLs the process and resolves once it is really gone. */
export async function killHard(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGKILL');
  await exited;
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Worker processes for a kill test, on one test database: `start` spawns worker/main.ts with the
 * test's settings (plus `env`), `killAll` SIGKILLs whatever is still running (for afterAll).
 */
export function workerProcesses(databaseUrl: () => string) {
  const started: ChildProcess[] = [];
  return {
    start(env: Record<string, string>): ChildProcess {
      const child = spawnTs('worker/main.ts', {
        env: { ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'warn', DATABASE_URL: databaseUrl(), ...env },
        stdio: 'ignore',
      });
      started.push(child);
      return child;
    },
    async killAll(): Promise<void> {
      for (const child of started) await killHard(child);
    },
  };
}
