import { startTestApi, type TestApi } from './api';
import { createTestDatabase, type TestDatabase } from './database';
import { createTeamAndOwner } from './fixtures';

type Owner = Awaited<ReturnType<typeof createTeamAndOwner>>;

/**
 * The usual e2e set-up: a fresh database, the gateway over it, and two teams (Acme and Other) to
 * prove that nothing crosses between them. Registers its own beforeAll/afterAll; read the fields
 * inside tests.
 */
export function withTwoTeams(opts: { env?: Record<string, string> | (() => Record<string, string>) } = {}) {
  const ctx = {} as { tdb: TestDatabase; api: TestApi; acme: Owner; other: Owner };
  // beforeAll may fail part way: the teardown stops only what was started.
  const started: Partial<typeof ctx> = ctx;
  beforeAll(async () => {
    ctx.tdb = await createTestDatabase();
    ctx.api = await startTestApi(ctx.tdb.db, { env: typeof opts.env === 'function' ? opts.env() : opts.env });
    ctx.acme = await createTeamAndOwner(ctx.tdb.db, 'Acme');
    ctx.other = await createTeamAndOwner(ctx.tdb.db, 'Other');
  });
  afterAll(async () => {
    await started.api?.stop();
    await started.tdb?.drop();
  });
  /** A JSON request as the given bearer. */
  const send = (method: string, path: string, token: string, body?: unknown) =>
    ctx.api.fetch(path, {
      method,
      token,
      headers: { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  return { ctx, send };
}
