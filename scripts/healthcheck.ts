import { loadConfig } from '../shared/config';

/**
 * The image's HEALTHCHECK (`node dist/scripts/healthcheck.js`). One image runs the API or a worker,
 * so it asks the readiness probe of whichever of them this container runs: the API's /readyz on PORT,
 * else the worker's on WORKER_HEALTH_PORT. Exit 0 on a 200 only; what it heard is printed, which
 * Docker keeps with the container's health.
 */
const TIMEOUT_MS = 4000;

const reachable = (host: string) => {
  const h = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  return h.includes(':') ? `[${h}]` : h;
};

async function main(): Promise<number> {
  const config = loadConfig();
  const probes = [
    `http://${reachable(config.HOST)}:${config.PORT}/readyz`,
    `http://${reachable(config.WORKER_HEALTH_HOST)}:${config.WORKER_HEALTH_PORT}/readyz`,
  ];
  const unanswered: string[] = [];
  for (const url of probes) {
    let res: Response;
    try {
      res = await fetch(url, { signal: AbortSignal.timeout(TIMEOUT_MS) });
    } catch (err) {
      const cause = (err as Error & { cause?: Error }).cause;
      unanswered.push(`${url}: ${cause?.message ?? (err as Error).message}`);
      continue;
    }
    process.stdout.write(`${url} ${res.status} ${await res.text()}\n`);
    return res.status === 200 ? 0 : 1;
  }
  process.stdout.write(`no probe answered:\n${unanswered.map((u) => `  ${u}`).join('\n')}\n`);
  return 1;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stdout.write(`${(err as Error).message}\n`);
    process.exit(1);
  },
);
