import type { Db } from '../../db/knex';
import { badRequest, conflict, notFound } from '../../errors';
import type { CategoryDto } from './schema';

const toDto = (r: any): CategoryDto => ({
  id: r.id,
  name: r.name,
  slug: r.slug,
  color: r.color,
  description: r.description,
  parentId: r.parentId,
  taxRate: r.taxRate,
  taxType: r.taxType,
  excluded: r.excluded,
  createdAt: new Date(r.createdAt).toISOString(),
});

export const slugify = (name: string) =>
  name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '') || 'category';

export async function listCategories(db: Db, teamId: string): Promise<CategoryDto[]> {
  return (await db('transaction_categories').where({ teamId }).orderBy('name')).map(toDto);
}

async function assertParent(db: Db, teamId: string, parentId: string | null | undefined, selfId?: string) {
  if (!parentId) return;
  if (parentId === selfId) throw badRequest('A category cannot be its own parent', [{ field: 'parentId', message: 'is the category itself' }]);
  const parent = await db('transaction_categories').where({ teamId, id: parentId }).first('id');
  if (!parent) throw badRequest('Invalid parent', [{ field: 'parentId', message: 'no such category in your team' }]);
}

export async function createCategory(db: Db, teamId: string, body: Record<string, any> & { name: string; slug?: string }): Promise<CategoryDto> {
  await assertParent(db, teamId, body.parentId);
  const slug = body.slug ?? slugify(body.name);
  try {
    const [row] = await db('transaction_categories').insert({ ...body, slug, teamId }).returning('*');
    return toDto(row);
  } catch (err) {
    if ((err as { code?: string }).code === '23505') throw conflict(`A category with slug "${slug}" already exists`);
    throw err;
  }
}

/** The slug never changes: transactions refer to it. */
export async function updateCategory(db: Db, teamId: string, id: string, body: Record<string, any>): Promise<CategoryDto> {
  await assertParent(db, teamId, body.parentId, id);
  const [row] = await db('transaction_categories').where({ teamId, id }).update(body).returning('*');
  if (!row) throw notFound(`Category ${id} not found`);
  return toDto(row);
}

/** Its transactions become uncategorised; its children move up to its parent. */
export async function deleteCategory(db: Db, teamId: string, id: string): Promise<void> {
  await db.transaction(async (trx) => {
    const row = await trx('transaction_categories').where({ teamId, id }).first();
    if (!row) throw notFound(`Category ${id} not found`);
    await trx('transactions').where({ teamId, categorySlug: row.slug }).update({ categorySlug: null });
    await trx('transaction_categories').where({ teamId, parentId: id }).update({ parentId: row.parentId });
    await trx('transaction_categories').where({ teamId, id }).delete();
  });
}
