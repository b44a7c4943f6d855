import { AsyncLocalStorage } from 'node:async_hooks';
import type { Knex } from 'knex';

/**
 * The second wall between teams (the first is the `where team_id` every service writes). Code that
 * acts for one team runs inside `withinTeam(teamId, …)`; every connection it takes from the pool is
 * switched to the `finops_app` role with `app.team_id` set, and PostgreSQL's row-level security
 * (migration 0054) then shows and accepts only that team's rows on every team-owned table. A query
 * that forgot its `where team_id` returns the caller's rows, never another team's.
 *
 * Outside such a scope (webhooks, OAuth, authentication itself, workers, migrations, operations on
 * a user across their teams) connections act as the session user, whom row-level security does not
 * restrict, because those paths legitimately read across teams and are scoped by their own keys.
 * A connection is switched only when the scope differs from its last one, so a process that serves
 * one team pays nothing per query.
 */
export const APP_ROLE = 'finops_app';

const scope = new AsyncLocalStorage<string>();
const ACROSS = '';
const ANY = '*';
const CURRENT = Symbol('teamWall');

// Awaited inside the scope: a knex builder is lazy and runs its query only when awaited.
export const withinTeam = <T>(teamId: string, fn: () => T | PromiseLike<T>): Promise<T> => scope.run(teamId, async () => await fn());

/** For a user's own operations that span their teams (list my teams, accept an invitation). */
export const acrossTeams = <T>(fn: () => T | PromiseLike<T>): Promise<T> => scope.run(ACROSS, async () => await fn());

/**
 * For a read whose speed depends on an index over an operator PostgreSQL does not call leakproof
 * (full-text `@@`, trigram `<%`): under row-level security such an operator may only be evaluated
 * after the policy's check, so the planner cannot use the GIN index and reads every row of the team
 * instead, an order of magnitude slower on a large team. The same holds for a range on a column
 * whose comparison is not leakproof (numeric `amount`): estimated as one row, it turned the
 * transaction list's index walk into a sort of the whole date range. The query runs as the session
 * user and must name its team in every table it reads, as all service SQL does; use it for nothing
 * else than such reads (search, the transaction list).
 */
export const outsideTheWall = <T>(fn: () => T | PromiseLike<T>): Promise<T> => scope.run(ACROSS, async () => await fn());

/**
 * For queries on tables no team owns (the rate-limit counters), which run before a request knows
 * its team: they take a connection as it is, so a request does not switch its connection away from
 * its team and back.
 */
export const anyScope = <T>(fn: () => T | PromiseLike<T>): Promise<T> => scope.run(ANY, async () => await fn());

/**
 * Who is acting and through what, for the audit trail (migration 0088): the row triggers copy it
 * into every entry the scope's writes make. Short keys, since it travels to PostgreSQL as a setting.
 */
export interface AuditActor {
  /** The operation's name (`transactions.create`), `webhook:<provider>`, `activity:<type>`, `admin:<command>`, `mcp:<tool>`. */
  op: string;
  /** `agent`: an approved agent action, applied for the user (actorId) through the client that proposed it (credId). */
  actor: 'user' | 'agent' | 'workflow' | 'provider' | 'admin' | 'system' | 'link';
  actorId?: string | null;
  cred: 'session' | 'api_key' | 'oauth' | 'mcp' | 'workflow' | 'webhook' | 'admin' | 'system' | 'link';
  credId?: string | null;
  req?: string | null;
  ip?: string | null;
}

const audit = new AsyncLocalStorage<string>();

/**
 * Runs `fn` with `actor` as the audit context of every connection it takes. Serialised once here: a
 * connection compares the text with what it last had and sends it only when it differs.
 */
export const asActor = <T>(actor: AuditActor, fn: () => T | PromiseLike<T>): Promise<T> =>
  audit.run(JSON.stringify(actor), async () => await fn());

/**
 * Runs `fn` as no one: for a statement that carries the calls of many actors at once (shared/db/grouped.ts),
 * whose writes are no one caller's to be credited with. Its connections carry no actor's context, and
 * are not switched to the next caller's and back between two such statements (a round trip each).
 */
export const asNoActor = <T>(fn: () => T | PromiseLike<T>): Promise<T> => audit.run('', async () => await fn());

/** Whether some actor's context is in effect, without parsing it as currentActor does. */
export const hasActor = (): boolean => Boolean(audit.getStore());

/** Runs `fn` as the service itself (an outbox pass, a sweep), naming what it is doing as the entry's operation. */
export const asSystem = <T>(op: string, fn: () => T | PromiseLike<T>): Promise<T> => asActor({ op, actor: 'system', cred: 'system' }, fn);

/** The audit context in effect, parsed (tests and the workflow interceptor read it). */
export const currentActor = (): AuditActor | undefined => {
  const text = audit.getStore();
  return text ? (JSON.parse(text) as AuditActor) : undefined;
};

export const currentTeamScope = (): string | undefined => {
  const current = scope.getStore();
  return current === ANY ? undefined : current || undefined;
};

const ACTOR = Symbol('auditActor');

interface PooledConnection {
  [CURRENT]?: string;
  [ACTOR]?: string;
}
interface PoolClient {
  query(connection: PooledConnection, query: { sql: string; bindings: unknown[] }): Promise<unknown>;
  acquireConnection(): Promise<PooledConnection>;
  releaseConnection(connection: PooledConnection): Promise<unknown>;
}

/** Makes every connection this knex instance hands out follow the caller's scope. Idempotent. */
export function installTeamWall(db: Knex): void {
  const client = db.client as PoolClient & { [CURRENT]?: true };
  if (client[CURRENT]) return;
  client[CURRENT] = true;
  const acquire = client.acquireConnection.bind(client);
  client.acquireConnection = async () => {
    const connection = await acquire();
    const want = scope.getStore() ?? ACROSS;
    if (want === ANY) return connection;
    // A connection never keeps an earlier caller's audit context: outside any, it is cleared, so a
    // write there is recorded as unattributed rather than as someone else's.
    const actor = audit.getStore() ?? '';
    const sameTeam = (connection[CURRENT] ?? ACROSS) === want;
    const sameActor = (connection[ACTOR] ?? '') === actor;
    if (sameTeam && sameActor) return connection;
    try {
      // Through knex, so the switch shows among the process's queries (debug log, query events); one
      // round trip whichever of the two changed.
      await client.query(
        connection,
        sameActor
          ? {
              sql: `select set_config('role', ?, false), set_config('app.team_id', ?, false)`,
              bindings: [want === ACROSS ? 'none' : APP_ROLE, want],
            }
          : sameTeam
            ? { sql: `select set_config('app.audit', ?, false)`, bindings: [actor] }
            : {
                sql: `select set_config('role', ?, false), set_config('app.team_id', ?, false), set_config('app.audit', ?, false)`,
                bindings: [want === ACROSS ? 'none' : APP_ROLE, want, actor],
              },
      );
      connection[CURRENT] = want;
      connection[ACTOR] = actor;
      return connection;
    } catch (err) {
      await client.releaseConnection(connection);
      throw err;
    }
  };
}
