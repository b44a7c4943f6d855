import type { z } from 'zod';
import type { Db } from '../../db/knex';
import { isUniqueViolation } from '../../db/constraint-errors';
import { Category, Transaction } from '../../db/models';
import { toIso } from '../../db/timestamps';
import { badRequest, conflict, notFound } from '../../errors';
import type { CategoryDto, createCategoryBody, updateCategoryBody } from './schema';

const toDto = (c: Category): CategoryDto => ({
  id: c.id,
  name: c.name,
  slug: c.slug,
  color: c.color,
  description: c.description,
  parentId: c.parentId,
  taxRate: c.taxRate,
  taxType: c.taxType,
  excluded: c.excluded,
  createdAt: toIso(c.createdAt),
});

export const slugify = (name: string) =>
  name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '') || 'category';

export async function listCategories(db: Db, teamId: string): Promise<CategoryDto[]> {
  return (await Category.query(db).where({ teamId }).orderBy('name')).map(toDto);
}

async function assertParent(db: Db, teamId: string, parentId: string | null | undefined, selfId?: string) {
  if (!parentId) return;
  if (parentId === selfId)
    throw badRequest('A category cannot be its own parent', [{ field: 'parentId', message: 'is the category itself' }]);
  const parent = await Category.query(db).findOne({ teamId, id: parentId }).select('id');
  if (!parent) throw badRequest('Invalid parent', [{ field: 'parentId', message: 'no such category in your team' }]);
}

export async function createCategory(db: Db, teamId: string, body: z.infer<typeof createCategoryBody>): Promise<CategoryDto> {
  await assertParent(db, teamId, body.parentId);
  const slug = body.slug ?? slugify(body.name);
  try {
    return toDto(
      await Category.query(db)
        .insert({ ...body, slug, teamId })
        .returning('*'),
    );
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict(`A category with slug "${slug}" already exists`);
    throw err;
  }
}

/** The slug never changes: transactions refer to it. */
export async function updateCategory(db: Db, teamId: string, id: string, body: z.infer<typeof updateCategoryBody>): Promise<CategoryDto> {
  await assertParent(db, teamId, body.parentId, id);
  const row = (await Category.query(db).patch(body).where({ teamId, id }).returning('*')).at(0);
  if (!row) throw notFound(`Category ${id} not found`);
  return toDto(row);
}

/** Its transactions (and parts of split ones) become uncategorised; its children move up to its parent. */
export async function deleteCategory(db: Db, teamId: string, id: string): Promise<void> {
  await db.transaction(async (trx) => {
    const row = await Category.query(trx).findOne({ teamId, id });
    if (!row) throw notFound(`Category ${id} not found`);
    await Transaction.query(trx).patch({ categorySlug: null }).where({ teamId, categorySlug: row.slug });
    // Parts of split transactions in it become uncategorised too, so the totals move with them.
    await trx.raw(
      `update transactions t set splits = (
         select jsonb_agg(case when s ->> 'categorySlug' = x.slug then s || '{"categorySlug": null}' else s end order by n)
           from jsonb_array_elements(t.splits) with ordinality as e(s, n))
         from (select ?::text as slug) x
        where t.team_id = ? and t.splits @> jsonb_build_array(jsonb_build_object('categorySlug', x.slug))`,
      [row.slug, teamId],
    );
    await Category.query(trx).patch({ parentId: row.parentId }).where({ teamId, parentId: id });
    await Category.query(trx).delete().where({ teamId, id });
  });
}
