import { createHmac, randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { Db } from '../../db/knex';
import { AccountantLink, AccountantLinkUse, type AccountantLinkOutcome, Document, TransactionExport } from '../../db/models';
import { asActor } from '../../db/team-wall';
import { dbNow, toIso, toIsoOrNull } from '../../db/timestamps';
import { conflict, notFound } from '../../errors';
import { StorageNotFoundError, type Storage } from '../../providers/storage';
import type { MailMessage } from '../../providers/mail';
import { sha256Hex } from '../crypto/tokens';
import { enqueueNotificationEmailTo } from '../notifications/delivery';
import { notify } from '../notifications/service';
import { teamNameOf } from '../teams/current';
import { accountantLinkEmail } from './email';
import type { AccountantLinkDto, CreateAccountantLinkBody } from './schema';

/**
 * The link's token is the server key's HMAC of its id (256 bits, unguessable without the key), so
 * the email sent later can carry the link while only the token's SHA-256 is stored.
 */
const tokenOf = (key: string, linkId: string) => `acc_${createHmac('sha256', key).update(`accountant-link:${linkId}`).digest('base64url')}`;
const DAY_MS = 86_400_000;

/** Where a link is opened. */
export const accountantLinkPath = (token: string) => `/accountant/${token}`;
const linkUrl = (publicUrl: string, token: string) => `${publicUrl.replace(/\/$/, '')}${accountantLinkPath(token)}`;

export interface LinkKeys {
  /** The server key the tokens are derived with (ENCRYPTION_KEY). */
  key: string;
  publicUrl: string;
}

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

/**
 * A new link to a completed export of the team; the URL (and its token) is in this answer only, and
 * in the email to `email` when one is given: that email is queued in the notification outbox in the
 * same transaction (a notice `accountant_link_shared` to the team, whose delivery to the address the
 * relay and NotificationDelivery send), so the link is never created without its email.
 */
export async function createAccountantLink(
  db: Db,
  who: { teamId: string; userId: string | null },
  body: CreateAccountantLinkBody,
  keys: LinkKeys,
): Promise<AccountantLinkDto> {
  const exported = await TransactionExport.query(db).findOne({ teamId: who.teamId, id: body.exportId }).select('status', 'documentId');
  if (!exported) throw notFound(`Export ${body.exportId} not found`);
  if (exported.status !== 'completed' || !exported.documentId) throw conflict('Only a completed export can be shared');
  const id = randomUUID();
  const token = tokenOf(keys.key, id);
  const now = new Date();
  const write = async (trx: Db) => {
    const link = await AccountantLink.query(trx)
      .insert({
        id,
        teamId: who.teamId,
        exportId: body.exportId,
        tokenHash: sha256Hex(token),
        email: body.email ?? null,
        expiresAt: new Date(now.getTime() + body.expiresInDays * DAY_MS),
        createdBy: who.userId,
      })
      .returning('*');
    if (body.email) {
      const metadata = { linkId: id, exportId: body.exportId, email: body.email, expiresAt: toIso(link.expiresAt) };
      const notificationId = await notify(trx, { teamId: who.teamId, type: 'accountant_link_shared', metadata });
      await enqueueNotificationEmailTo(trx, { id: notificationId, teamId: who.teamId }, body.email);
    }
    return link;
  };
  const link = await (db.isTransaction ? write(db) : db.transaction(write));
  return toDto(link, now, linkUrl(keys.publicUrl, token));
}

/**
 * The accountant's email for a link, as the notification outbox sends it; null when the link no
 * longer works (revoked or expired before the mail went out: an email with a dead link helps nobody).
 */
export async function accountantLinkMessage(
  db: Db,
  keys: LinkKeys,
  target: { teamId: string; linkId: string; to: string },
  messageId: string,
): Promise<MailMessage | null> {
  const link = await AccountantLink.query(db).findOne({ teamId: target.teamId, id: target.linkId });
  if (!link || link.revokedAt || link.expiresAt.getTime() <= Date.now()) return null;
  const exported = await TransactionExport.query(db).findOne({ teamId: target.teamId, id: link.exportId });
  if (!exported) return null;
  const filters = exported.filters as { from?: string; to?: string };
  return accountantLinkEmail(
    {
      to: target.to,
      teamName: (await teamNameOf(db, target.teamId)) ?? 'A team',
      url: linkUrl(keys.publicUrl, tokenOf(keys.key, link.id)),
      expiresAt: link.expiresAt,
      formats: exported.formats,
      rows: exported.rowsWritten,
      receipts: exported.receiptsWritten,
      from: filters.from ?? null,
      until: filters.to ?? null,
    },
    messageId,
  );
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
