import { z } from 'zod';
import type { Db } from '../../../db/knex';
import { Category } from '../../../db/models';
import type { Question } from './define';

/** The optional category the report tools take. */
export const categoryInput = z.string().trim().min(1).max(100).optional().meta({ description: 'Category name or slug.' });

const norm = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();

/** "software" finds Software, "subscriptions" finds Subscription: a category whose name or slug contains the word or is in it. */
export const sameCategory = (asked: string, c: { slug: string | null; name: string }) => {
  const a = norm(asked).replace(/s$/, '');
  return [norm(c.name), norm(c.slug ?? '')].some((n) => n !== '' && (n.includes(a) || a.includes(n.replace(/s$/, ''))));
};

/** The team's categories a question's word names, as `sameCategory` reads it. */
export async function categoriesLike(db: Db, teamId: string, asked: string): Promise<{ slug: string; name: string }[]> {
  const all = await Category.query(db).where({ teamId }).select('slug', 'name').orderBy('name');
  return all.filter((c) => sameCategory(asked, c)).map((c) => ({ slug: c.slug, name: c.name }));
}

/** The category a question names after one of the words that introduce it ("spent on software"): the rest of the question. */
export function askedCategory(q: Question, introducedBy: readonly string[]): { category: string } | Record<string, never> {
  const category = new RegExp(String.raw`\b(?:${introducedBy.join('|')})\s+(.+)$`, 'i')
    .exec(q.restOriginal)?.[1]
    ?.replace(/^(?:the|our)\s+/i, '')
    .trim();
  return category ? { category } : {};
}

/** The answer when the asked category is none of the team's: no figure, since none would be about it. */
export const noSuchCategory = (asked: string, ref: number) => `The team has no category like ${asked} [${ref}].`;
