import type { Server } from 'node:http';
import { createApp } from '../../api/app';
import { createApiDeps, type ApiDeps } from '../../api/deps';
import { loadConfig, type Config } from '../../shared/config';
import type { Db } from '../../shared/db/knex';
import { createLogger } from '../../shared/logger';
import { createTemporalGateway, type TemporalGateway } from '../../shared/temporal/client';
import { keepConnectionsLongerThanClients } from '../../api/http/keep-alive';
import type { UntypedJson } from './untyped-json';

/** fetch's Response, with json() typed loosely for assertions. */
export type TestResponse = Omit<Response, 'json'> & { json(): Promise<UntypedJson> };

export interface TestApi {
  url: string;
  deps: ApiDeps;
  fetch(path: string, init?: RequestInit & { token?: string }): Promise<TestResponse>;
  stop(): Promise<void>;
}

/** A JSON request as the given bearer, with any extra headers; no body when `body` is undefined. */
export const sendJson = (
  api: Pick<TestApi, 'fetch'>,
  method: string,
  path: string,
  token: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<TestResponse> =>
  api.fetch(path, {
    method,
    token,
    headers: { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

/** A response's status and JSON body, for asserting on both; a 204 has no body to parse. */
export const statusAndBody = async (res: TestResponse): Promise<{ status: number; body: UntypedJson }> => ({
  status: res.status,
  body: res.status === 204 ? null : await res.json(),
});

/** POSTs JSON as the bearer and reads the answer: for tests that start their own API (worker-kill tests). */
export const postJsonAs =
  (api: Pick<TestApi, 'fetch'>, token: string) =>
  async (path: string, body: unknown): Promise<UntypedJson> =>
    (await sendJson(api, 'POST', path, token, body)).json();

export function testConfig(overrides: Record<string, string> = {}): Config {
  return loadConfig({ ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'silent', VALIDATE_RESPONSES: 'true', ...overrides });
}

/** The real gateway on a loopback port, over the given database; Temporal from the global setup unless replaced. */
export async function startTestApi(
  db: Db,
  opts: { env?: Record<string, string>; temporal?: TemporalGateway; deps?: Partial<ApiDeps> } = {},
): Promise<TestApi> {
  const config = testConfig(opts.env);
  const temporal =
    opts.temporal ??
    createTemporalGateway({
      address: config.TEMPORAL_ADDRESS,
      namespace: config.TEMPORAL_NAMESPACE,
      taskQueue: config.TEMPORAL_TASK_QUEUE,
    });
  const deps = createApiDeps({ config, db, temporal, logger: createLogger(config) }, opts.deps);
  const server: Server = await new Promise((resolve) => {
    const s = keepConnectionsLongerThanClients(createApp(deps).listen(0, '127.0.0.1', () => resolve(s)));
  });
  const { port } = server.address() as { port: number };
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    deps,
    fetch: (path, init = {}) => {
      const { token, headers, ...rest } = init;
      return fetch(url + path, {
        ...rest,
        headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(headers as Record<string, string>) },
      });
    },
    async stop() {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
      await deps.limiters.close();
      await deps.credentials.close();
      await deps.eventWake.close();
      if (!opts.temporal) await temporal.close();
    },
  };
}
