import type { Db } from '../../db/knex';
import { conflict, notFound } from '../../errors';
import type { TagDto } from './schema';

const toDto = (r: any): TagDto => ({ id: r.id, name: r.name, color: r.color, createdAt: new Date(r.createdAt).toISOString() });
const isUniqueViolation = (err: unknown) => (err as { code?: string }).code === '23505';

/** A team has few tags: the list is not paginated, sorted by name. */
export async function listTags(db: Db, teamId: string): Promise<TagDto[]> {
  return (await db('tags').where({ teamId }).orderBy('name')).map(toDto);
}

export async function createTag(db: Db, teamId: string, body: { name: string; color?: string | null }): Promise<TagDto> {
  try {
    const [row] = await db('tags').insert({ teamId, name: body.name, color: body.color ?? null }).returning('*');
    return toDto(row);
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict(`A tag named "${body.name}" already exists`);
    throw err;
  }
}

export async function updateTag(db: Db, teamId: string, id: string, body: { name?: string; color?: string | null }): Promise<TagDto> {
  try {
    const [row] = await db('tags').where({ teamId, id }).update(body).returning('*');
    if (!row) throw notFound(`Tag ${id} not found`);
    return toDto(row);
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict(`A tag named "${body.name}" already exists`);
    throw err;
  }
}

/** Deleting a tag removes it from everything it labels (the link rows cascade). */
export async function deleteTag(db: Db, teamId: string, id: string): Promise<void> {
  const n = await db('tags').where({ teamId, id }).delete();
  if (!n) throw notFound(`Tag ${id} not found`);
}
