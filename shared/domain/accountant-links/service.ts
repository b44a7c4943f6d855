import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { Db } from '../../db/knex';
import { AccountantLink, AccountantLinkUse, type AccountantLinkOutcome, Document, TransactionExport } from '../../db/models';
import { asActor } from '../../db/team-wall';
import { dbNow, toIso, toIsoOrNull } from '../../db/timestamps';
import { conflict, notFound } from '../../errors';
import { StorageNotFoundError, type Storage } from '../../providers/storage';
import { sha256Hex } from '../crypto/tokens';
import type { AccountantLinkDto, CreateAccountantLinkBody } from './schema';

// 32 random bytes: unguessable, so the link needs no credentials; only its SHA-256 is stored.
const newToken = () => `acc_${randomBytes(32).toString('base64url')}`;
const DAY_MS = 86_400_000;

/** Where a link is opened. */
export const accountantLinkPath = (token: string) => `/accountant/${token}`;

type LinkRow = AccountantLink & { uses?: number; refused?: number };

function toDto(l: LinkRow, now: Date, url: string | null = null): AccountantLinkDto {
  return {
    id: l.id,
    exportId: l.exportId,
    email: l.email,
    url,
    expiresAt: toIso(l.expiresAt),
    revokedAt: toIsoOrNull(l.revokedAt),
    status: l.revokedAt ? 'revoked' : l.expiresAt.getTime() <= now.getTime() ? 'expired' : 'active',
    uses: l.uses ?? 0,
    refused: l.refused ?? 0,
    createdAt: toIso(l.createdAt),
  };
}

/** A new link to a completed export of the team; the URL (and its token) is in this answer only. */
export async function createAccountantLink(
  db: Db,
  who: { teamId: string; userId: string | null },
  body: CreateAccountantLinkBody,
  publicUrl: string,
): Promise<AccountantLinkDto> {
  const exported = await TransactionExport.query(db).findOne({ teamId: who.teamId, id: body.exportId }).select('status', 'documentId');
  if (!exported) throw notFound(`Export ${body.exportId} not found`);
  if (exported.status !== 'completed' || !exported.documentId) throw conflict('Only a completed export can be shared');
  const token = newToken();
  const now = new Date();
  const link = await AccountantLink.query(db)
    .insert({
      teamId: who.teamId,
      exportId: body.exportId,
      tokenHash: sha256Hex(token),
      email: body.email ?? null,
      expiresAt: new Date(now.getTime() + body.expiresInDays * DAY_MS),
      createdBy: who.userId,
    })
    .returning('*');
  return toDto(link, now, `${publicUrl.replace(/\/$/, '')}${accountantLinkPath(token)}`);
}

const withCounts = (db: Db, teamId: string) =>
  AccountantLink.query(db)
    .where('accountant_links.team_id', teamId)
    .select(
      'accountant_links.*',
      db.raw(
        `(select count(*) from accountant_link_uses u where u.link_id = accountant_links.id and u.outcome = 'downloaded')::int as uses`,
      ),
      db.raw(
        `(select count(*) from accountant_link_uses u where u.link_id = accountant_links.id and u.outcome in ('expired', 'revoked'))::int as refused`,
      ),
    );

/** The links made for one export of the team, newest first (404 for an export that is not the team's). */
export async function listAccountantLinks(db: Db, teamId: string, exportId: string): Promise<AccountantLinkDto[]> {
  const exported = await TransactionExport.query(db).findOne({ teamId, id: exportId }).select('id');
  if (!exported) throw notFound(`Export ${exportId} not found`);
  const rows = (await withCounts(db, teamId)
    .where('accountant_links.export_id', exportId)
    .orderBy([
      { column: 'accountant_links.created_at', order: 'desc' },
      { column: 'accountant_links.id', order: 'desc' },
    ])) as LinkRow[];
  const now = new Date();
  return rows.map((r) => toDto(r, now));
}

/** The link stops working at once; revoking it again changes nothing. */
export async function revokeAccountantLink(db: Db, teamId: string, id: string): Promise<void> {
  const link = await AccountantLink.query(db).findOne({ teamId, id }).select('id', 'revokedAt');
  if (!link) throw notFound(`Accountant link ${id} not found`);
  if (!link.revokedAt) await AccountantLink.query(db).where({ teamId, id }).whereNull('revokedAt').patch({ revokedAt: dbNow() });
}

export interface SharedFile {
  name: string;
  mimeType: string;
  size: number;
  stream: Readable;
}

/**
 * What a link opens, or null (404 for whoever holds it). A token no link has is not any team's, so
 * nothing is recorded for it; every use of a known link is, as the link acting (`link`, its id, the
 * caller's address) in the link's team: a download, and a refusal for an expired or revoked link or an
 * export whose file is gone.
 */
export async function openAccountantLink(db: Db, storage: Storage, token: string, ip: string | null): Promise<SharedFile | null> {
  const link = await AccountantLink.query(db).findOne({ tokenHash: sha256Hex(token) });
  if (!link) return null;
  const record = (outcome: AccountantLinkOutcome) =>
    asActor({ op: 'accountantLinks.open', actor: 'link', actorId: link.id, cred: 'link', credId: link.id, ip }, () =>
      AccountantLinkUse.query(db).insert({ teamId: link.teamId, linkId: link.id, outcome, ip }),
    );
  if (link.revokedAt) {
    await record('revoked');
    return null;
  }
  if (link.expiresAt.getTime() <= Date.now()) {
    await record('expired');
    return null;
  }
  const exported = await TransactionExport.query(db).findOne({ teamId: link.teamId, id: link.exportId }).select('documentId');
  const document = exported?.documentId
    ? await Document.query(db).findOne({ teamId: link.teamId, id: exported.documentId }).whereNull('deletedAt')
    : undefined;
  const file = document ? await storage.open(document.storageKey).catch(missingAsNull) : null;
  if (!document || !file) {
    await record('unavailable');
    return null;
  }
  await record('downloaded');
  return { name: document.name, mimeType: document.mimeType, size: file.size, stream: file.stream };
}

function missingAsNull(err: unknown): null {
  if (err instanceof StorageNotFoundError) return null;
  throw err;
}
