import { createHash, randomBytes } from 'node:crypto';
import { signSessionToken } from '../../api/auth/session-token';
import type { Db } from '../../shared/db/knex';
import { createUserWithTeam } from '../../shared/domain/teams/service';
import { newApiKey, sha256Hex } from '../../shared/domain/crypto/tokens';
import { testConfig } from './api';

/** A team with its owner and a session token for that owner. */
export async function createTeamAndOwner(db: Db, name = 'Acme') {
  const email = `owner-${randomBytes(4).toString('hex')}@example.com`;
  const { user, team } = await createUserWithTeam(db, { email, fullName: 'Olive Owner', teamName: name });
  const sessionToken = await signSessionToken(testConfig().AUTH_JWT_SECRET!, user.id);
  return { user, team, sessionToken };
}

/** Inserts an API key row directly (the apiKeys service is exercised by its own tests). */
export async function insertApiKey(db: Db, owner: { teamId: string; userId: string }, scopes: string[]): Promise<string> {
  const key = newApiKey();
  await db('api_keys').insert({
    teamId: owner.teamId,
    userId: owner.userId,
    name: 'fixture',
    keyHash: sha256Hex(key),
    keyHint: key.slice(-4),
    scopes,
  });
  return key;
}

/** Inserts `count` transactions for a team, one per day going back from `start`, amounts -1, -2, … */
export async function insertTransactions(db: Db, teamId: string, count: number, start = '2026-06-30', extra: Record<string, unknown> = {}) {
  const base = new Date(`${start}T00:00:00Z`).getTime();
  const rows = Array.from({ length: count }, (_, i) => ({
    teamId,
    date: new Date(base - Math.floor(i / 2) * 86_400_000).toISOString().slice(0, 10),
    name: `Merchant ${i}`,
    amount: -(i + 1),
    currency: 'EUR',
    providerTransactionId: `fx-${teamId.slice(0, 8)}-${i}`,
    ...extra,
  }));
  for (let i = 0; i < rows.length; i += 1000) await db('transactions').insert(rows.slice(i, i + 1000));
  return rows;
}

/** A builder of transaction rows for a team, to insert as they are: EUR and named `x` unless `extra` says otherwise. */
export const transactionRowFor =
  (teamId: string) =>
  (date: string, amount: number, extra: Record<string, unknown> = {}) => ({ teamId, date, amount, name: 'x', currency: 'EUR', ...extra });

/** A processed text document, as if uploaded and read (the upload path has its own tests); its id. */
export async function insertDocument(
  db: Db,
  teamId: string,
  doc: { name: string; content: string; kind?: string; createdAt?: Date },
): Promise<string> {
  const [row] = await db('documents')
    .insert({
      teamId,
      name: doc.name,
      content: doc.content,
      kind: doc.kind ?? null,
      storageKey: `${teamId}/${doc.name}`,
      mimeType: 'text/plain',
      size: Buffer.byteLength(doc.content),
      sha256: createHash('sha256').update(doc.content).digest('hex'),
      processingStatus: 'completed',
      ...(doc.createdAt ? { createdAt: doc.createdAt } : {}),
    })
    .returning<{ id: string }[]>('id');
  return row.id;
}
