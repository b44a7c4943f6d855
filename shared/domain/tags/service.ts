import type { Db } from '../../db/knex';
import { isUniqueViolation } from '../../db/constraint-errors';
import { Tag } from '../../db/models';
import { toIso } from '../../db/timestamps';
import { conflict, notFound } from '../../errors';
import type { TagDto } from './schema';

const toDto = (t: Tag): TagDto => ({ id: t.id, name: t.name, color: t.color, createdAt: toIso(t.createdAt) });

/** Names are unique per team: a second one is a 409, on create and on rename alike. */
async function uniqueName<T>(name: string | undefined, write: () => PromiseLike<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict(`A tag named "${name}" already exists`);
    throw err;
  }
}

/** A team has few tags: the list is not paginated, sorted by name. */
export async function listTags(db: Db, teamId: string): Promise<TagDto[]> {
  return (await Tag.query(db).where({ teamId }).orderBy('name')).map(toDto);
}

export async function createTag(db: Db, teamId: string, body: { name: string; color?: string | null }): Promise<TagDto> {
  const row = await uniqueName(body.name, () =>
    Tag.query(db)
      .insert({ teamId, name: body.name, color: body.color ?? null })
      .returning('*'),
  );
  return toDto(row);
}

export async function updateTag(db: Db, teamId: string, id: string, body: { name?: string; color?: string | null }): Promise<TagDto> {
  const row = (await uniqueName(body.name, () => Tag.query(db).patch(body).where({ teamId, id }).returning('*'))).at(0);
  if (!row) throw notFound(`Tag ${id} not found`);
  return toDto(row);
}

/** Deleting a tag removes it from everything it labels (the link rows cascade). */
export async function deleteTag(db: Db, teamId: string, id: string): Promise<void> {
  const n = await Tag.query(db).delete().where({ teamId, id });
  if (!n) throw notFound(`Tag ${id} not found`);
}
