import type { ModelObject } from 'objection';
import type { Db } from '../../db/knex';
import { isUniqueViolation } from '../../db/constraint-errors';
import { InvoiceProduct } from '../../db/models';
import { dbNow, toIso } from '../../db/timestamps';
import { conflict, notFound } from '../../errors';
import { newestFirstPage, type CursorRow, type Page } from '../common/cursor';
import { containsPattern } from '../common/query';
import type { CreateProductBody, ListProductsQuery, ProductDto, UpdateProductBody } from './schema';

type ProductRow = ModelObject<InvoiceProduct> & CursorRow;

const toDto = ({ teamId: _team, cursorCreatedAt: _cursor, createdAt, updatedAt, ...fields }: ProductRow): ProductDto => ({
  ...fields,
  createdAt: toIso(createdAt),
  updatedAt: toIso(updatedAt),
});

// The keyset list (and the read that shares its select): typed Knex.
const select = (db: Db, teamId: string) =>
  db('invoice_products as p').where('p.team_id', teamId).select<ProductRow[]>('p.*', db.raw('p.created_at::text as cursor_created_at'));

/** A name the team already uses is the caller's conflict, not a database error. */
async function uniquely<T>(name: string | undefined, write: () => PromiseLike<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict(`A product named "${name}" already exists`);
    throw err;
  }
}

export async function listProducts(db: Db, teamId: string, query: ListProductsQuery): Promise<Page<ProductDto>> {
  const q = select(db, teamId);
  if (query.q) q.whereILike('p.name', containsPattern(query.q));
  return newestFirstPage(q, 'p', query, toDto);
}

export async function getProduct(db: Db, teamId: string, id: string): Promise<ProductDto> {
  const row = (await select(db, teamId).where('p.id', id)).at(0);
  if (!row) throw notFound(`Product ${id} not found`);
  return toDto(row);
}

export async function createProduct(db: Db, teamId: string, body: CreateProductBody): Promise<ProductDto> {
  const row = await uniquely(body.name, () => InvoiceProduct.query(db).insert({ ...body, teamId }));
  return getProduct(db, teamId, row.id);
}

export async function updateProduct(db: Db, teamId: string, id: string, body: UpdateProductBody): Promise<ProductDto> {
  const n = await uniquely(body.name, () =>
    InvoiceProduct.query(db)
      .where({ teamId, id })
      .patch({ ...body, updatedAt: dbNow() }),
  );
  if (!n) throw notFound(`Product ${id} not found`);
  return getProduct(db, teamId, id);
}

export async function deleteProduct(db: Db, teamId: string, id: string): Promise<void> {
  const n = await InvoiceProduct.query(db).where({ teamId, id }).delete();
  if (!n) throw notFound(`Product ${id} not found`);
}
