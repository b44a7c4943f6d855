import { randomBytes } from 'node:crypto';
import type { Db } from '../../db/knex';
import { asActor, type AuditActor } from '../../db/team-wall';
import type { Storage } from '../../providers/storage';
import { Invoice, InvoiceLink } from '../../db/models';
import { dbNow, toIso } from '../../db/timestamps';
import { conflict, notFound } from '../../errors';
import { sha256Hex } from '../crypto/tokens';
import { invoiceForPdf, type InvoiceParties } from './pdf';
import type { InvoiceDto } from './schema';

// 32 random bytes: unguessable, so the public page needs no login and no rate limit of its own.
const newToken = () => `inv_${randomBytes(32).toString('base64url')}`;

/** A new public link for a finalised invoice; the one it had stops working. The URL is shown once. */
export async function createPublicLink(
  db: Db,
  teamId: string,
  invoiceId: string,
  publicUrl: string,
): Promise<{ url: string; createdAt: string }> {
  const invoice = await Invoice.query(db).findOne({ teamId, id: invoiceId }).select('status');
  if (!invoice) throw notFound(`Invoice ${invoiceId} not found`);
  if (invoice.status === 'draft') throw conflict('A draft is not shown to customers: finalize the invoice first');
  const token = newToken();
  const link = await db.transaction(async (trx) => {
    await InvoiceLink.query(trx).where({ teamId, invoiceId }).whereNull('revokedAt').patch({ revokedAt: dbNow() });
    return InvoiceLink.query(trx)
      .insert({ teamId, invoiceId, tokenHash: sha256Hex(token) })
      .returning('createdAt');
  });
  return { url: `${publicUrl.replace(/\/$/, '')}/i/${token}`, createdAt: toIso(link.createdAt) };
}

/** The invoice's public link stops working at once. */
export async function revokePublicLink(db: Db, teamId: string, invoiceId: string): Promise<void> {
  const n = await InvoiceLink.query(db).where({ teamId, invoiceId }).whereNull('revokedAt').patch({ revokedAt: dbNow() });
  if (!n) throw notFound(`Invoice ${invoiceId} has no public link`);
}

/**
 * What the public page shows for a token, or 404 (unknown, revoked, or its invoice gone). The first
 * view of each day is recorded, and its time set on the invoice as `viewedAt`.
 */
export async function invoiceByPublicToken(
  db: Db,
  token: string,
  storage?: Pick<Storage, 'get'>,
  request: { requestId?: string; ip?: string } = {},
): Promise<{ invoice: InvoiceDto; teamId: string } & InvoiceParties> {
  const link = await InvoiceLink.query(db)
    .findOne({ tokenHash: sha256Hex(token) })
    .whereNull('revokedAt')
    .select('id', 'teamId', 'invoiceId');
  if (!link) throw notFound('No invoice at this link: it may have been replaced or revoked');
  // The view is the customer's, through the link: the trail names the link, as it does an accountant's.
  const viewer: AuditActor = {
    op: 'invoices.viewPublic',
    actor: 'link',
    actorId: link.id,
    cred: 'link',
    credId: link.id,
    req: request.requestId,
    ip: request.ip,
  };
  await asActor(viewer, async () => {
    const { rows } = await db.raw<{ rows: unknown[] }>(
      `insert into invoice_views (team_id, invoice_id, day) values (?, ?, current_date) on conflict do nothing returning 1`,
      [link.teamId, link.invoiceId],
    );
    if (rows.length) await Invoice.query(db).where({ teamId: link.teamId, id: link.invoiceId }).patch({ viewedAt: new Date() });
  });
  return { ...(await invoiceForPdf(db, link.teamId, link.invoiceId, storage)), teamId: link.teamId };
}
