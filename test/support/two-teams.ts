import { sendJson, startTestApi, type TestApi } from './api';
import { withTestDatabase, type FileDatabase } from './database';
import { createTeamAndOwner } from './fixtures';

type Owner = Awaited<ReturnType<typeof createTeamAndOwner>>;

/**
 * The usual e2e set-up: a fresh database, the gateway over it, and two teams (Acme and Other) to
 * prove that nothing crosses between them. Registers its own beforeAll/afterAll; read the fields
 * inside tests.
 */
export function withTwoTeams(opts: { env?: Record<string, string> | (() => Record<string, string>) } = {}) {
  const ctx = {} as { tdb: FileDatabase; api: TestApi; acme: Owner; other: Owner };
  // beforeAll may fail part way: the teardown stops only what was started.
  const started: Partial<typeof ctx> = ctx;
  ctx.tdb = withTestDatabase({
    setUp: async () => {
      ctx.api = await startTestApi(ctx.tdb.db, { env: typeof opts.env === 'function' ? opts.env() : opts.env });
      ctx.acme = await createTeamAndOwner(ctx.tdb.db, 'Acme');
      ctx.other = await createTeamAndOwner(ctx.tdb.db, 'Other');
    },
    tearDown: async () => {
      await started.api?.stop();
    },
  });
  /** A JSON request as the given bearer, with any extra headers. */
  const send = (method: string, path: string, token: string, body?: unknown, headers?: Record<string, string>) =>
    sendJson(ctx.api, method, path, token, body, headers);
  return { ctx, send };
}
