import { userInfo } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { signSessionToken } from '../api/auth/session-token';
import { ConfigError, loadConfig, type Config } from '../shared/config';
import { createDb, migrateLatest, type Db } from '../shared/db/knex';
import { User } from '../shared/db/models';
import { asActor, type AuditActor } from '../shared/db/team-wall';
import { verifyAuditTrail } from '../shared/domain/audit-events/service';
import { keyIdOf, keyringOf } from '../shared/domain/crypto/encryption';
import { countNotUnderCurrentKey, reEncryptAll } from '../shared/domain/crypto/re-encrypt';
import { isUuid } from '../shared/domain/common/uuid';
import { createUserWithTeam } from '../shared/domain/teams/service';
import { AppError } from '../shared/errors';
import { PROJECT_ROOT } from '../shared/paths';
import { ensureDemo } from './lib/demo';
import { ensureDatabase, startEmbeddedPostgres, type RunningPostgres } from './lib/embedded-postgres';
import { tcpAnswers } from './lib/ports';

const USAGE = `Usage: npm run admin -- <command> [options]    (JSON on stdout)

  create-user --email E --name N [--team NAME | --team-id ID]
                       create a user in a new team (as owner) or an existing team (as member);
                       prints {userId, teamId, sessionToken}
  session-token --user-id ID
                       prints {userId, teamId, sessionToken} (HS256, 24 h)
  migrate              applies pending migrations; prints {applied}
  seed-demo            creates the demo team and user if missing; prints the demo credentials
  encryption-status    the current key's id, the retired keys' ids, and how many sealed values each
                       column still holds under another key: 0 everywhere means a retired key can go
  re-encrypt           seals those values again under ENCRYPTION_KEY here and now (what the ReEncrypt
                       workflow does after a rotation, for when no worker runs); prints what it rewrote
  audit-verify --team ID
                       re-walks the team's audit trail; prints {ok, entries, unsealed, checkpoints, brokenAt}
                       and exits 1 when a link is broken

Uses DATABASE_URL; when unset, the embedded PostgreSQL of \`npm start\` (started for the command if it is not running).`;

/** Operators' CLI: users come from the external identity provider, so this is how they are mirrored here. */
async function main(argv: string[]): Promise<unknown> {
  const [command, ...rest] = argv;
  const { values } = parseArgs({
    args: rest,
    options: {
      email: { type: 'string' },
      name: { type: 'string' },
      team: { type: 'string' },
      'team-id': { type: 'string' },
      'user-id': { type: 'string' },
    },
    strict: true,
  });
  if (!command || command === 'help' || command === '--help') {
    process.stderr.write(`${USAGE}\n`);
    process.exit(command ? 0 : 2);
  }
  try {
    process.loadEnvFile(path.join(PROJECT_ROOT, '.env'));
  } catch {
    // no .env
  }
  const config = loadConfig();
  // What the operator's commands write is on the team's audit trail as theirs.
  const actor: AuditActor = { op: `admin:${command}`, actor: 'admin', actorId: userInfo().username, cred: 'admin' };
  return withDb(config, (db) =>
    asActor(actor, async () => {
      switch (command) {
        case 'migrate':
          return { applied: await migrateLatest(db) };
        case 'seed-demo': {
          await migrateLatest(db);
          const demo = await ensureDemo(db, config);
          return demo;
        }
        case 'create-user': {
          if (!values.email) throw usage('--email is required');
          if (values.team && values['team-id']) throw usage('give --team or --team-id, not both');
          const { user, team, role } = await createUserWithTeam(db, {
            email: values.email,
            fullName: values.name,
            teamId: values['team-id'],
            teamName: values.team,
          });
          return { userId: user.id, teamId: team.id, role, inboxId: team.inboxId, sessionToken: await sessionToken(config, user.id) };
        }
        case 'audit-verify': {
          const teamId = values.team;
          if (!teamId || !isUuid(teamId)) throw usage('--team <team id> is required');
          const result = await verifyAuditTrail(db, teamId, config.AUDIT_SIGNING_KEY);
          if (!result.ok) process.exitCode = 1;
          return result;
        }
        case 'session-token': {
          const userId = values['user-id'];
          if (!userId) throw usage('--user-id is required');
          const user = await User.query(db)
            .findById(userId)
            .catch(() => undefined);
          if (!user) throw new AppError(404, 'Not Found', `User ${userId} not found`);
          return { userId: user.id, teamId: user.teamId, sessionToken: await sessionToken(config, user.id) };
        }
        case 'encryption-status': {
          const ring = keyringOf(config);
          return {
            keyId: ring.current.id,
            retiredKeyIds: config.ENCRYPTION_KEYS_RETIRED.map(keyIdOf),
            notUnderCurrentKey: await countNotUnderCurrentKey(db, ring),
          };
        }
        case 're-encrypt': {
          const ring = keyringOf(config);
          return { keyId: ring.current.id, columns: await reEncryptAll(db, ring, config.RE_ENCRYPT_BATCH) };
        }
        default:
          throw usage(`unknown command ${command}`);
      }
    }),
  );
}

const usage = (m: string) => new AppError(2, 'Usage', `${m}\n\n${USAGE}`);

function sessionToken(config: Config, userId: string) {
  if (!config.AUTH_JWT_SECRET)
    throw new Error('AUTH_JWT_SECRET is not set (tokens are verified with AUTH_JWKS_URL): sessions come from your identity provider');
  return signSessionToken(config.AUTH_JWT_SECRET, userId);
}

async function withDb<T>(config: Config, fn: (db: Db) => Promise<T>): Promise<T> {
  let url = config.DATABASE_URL;
  let pg: RunningPostgres | undefined;
  if (!url) {
    const address = `127.0.0.1:${config.EMBEDDED_PG_PORT}`;
    if (!(await tcpAnswers(address))) {
      pg = await startEmbeddedPostgres({
        dataDir: path.resolve(PROJECT_ROOT, config.DATA_DIR, 'postgres'),
        port: config.EMBEDDED_PG_PORT,
        persistent: true,
      });
    }
    const admin = `postgres://postgres:postgres@${address}/postgres`;
    await ensureDatabase(admin, 'finops');
    url = `postgres://postgres:postgres@${address}/finops`;
  }
  const db = createDb({ url, poolMax: 2 });
  try {
    return await fn(db);
  } finally {
    await db.destroy();
    await pg?.stop();
  }
}

main(process.argv.slice(2)).then(
  (out) => process.stdout.write(`${JSON.stringify(out, null, 2)}\n`),
  (err: unknown) => {
    const e = err as Error;
    const message = err instanceof ConfigError || err instanceof AppError ? e.message : (e.stack ?? String(e));
    process.stderr.write(`${JSON.stringify({ error: message })}\n`);
    process.exit(err instanceof AppError && err.status === 2 ? 2 : 1);
  },
);
