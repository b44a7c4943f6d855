import type { z } from 'zod';
import type { Db } from '../../db/knex';
import { TeamMember, TrackerEntry, TrackerProject } from '../../db/models';
import { toIso, toIsoOrNull } from '../../db/timestamps';
import { badRequest, notFound } from '../../errors';
import type { createEntryBody, EntryDto, entryRangeMetaSchema, listEntriesQuery, updateEntryBody } from './schema';
import { MAX_ENTRY_DAYS } from './schema';

const entryDto = (e: TrackerEntry): EntryDto => ({
  id: e.id,
  projectId: e.projectId,
  assignedId: e.assignedId,
  description: e.description,
  date: e.date,
  start: toIso(e.start),
  stop: toIsoOrNull(e.stop),
  duration: e.duration,
  rate: e.rate,
  currency: e.currency,
  billed: e.billed,
  createdAt: toIso(e.createdAt),
});

/** The entries of a date range (at most a year), newest first, with the total of the finished ones. */
export async function listEntries(
  db: Db,
  teamId: string,
  query: z.infer<typeof listEntriesQuery>,
): Promise<{ data: EntryDto[]; meta: z.infer<typeof entryRangeMetaSchema> }> {
  const rows = await TrackerEntry.query(db)
    .where({ teamId })
    .whereBetween('date', [query.from, query.to])
    .modify((q) => {
      if (query.projectId) q.where({ projectId: query.projectId });
    })
    .orderBy([
      { column: 'start', order: 'desc' },
      { column: 'id', order: 'desc' },
    ]);
  const data = rows.map(entryDto);
  return { data, meta: { totalDuration: data.reduce((s, e) => s + (e.duration ?? 0), 0), from: query.from, to: query.to } };
}

const seconds = (start: Date, stop: Date) => Math.round((stop.getTime() - start.getTime()) / 1000);

/**
 * Without `stop` this starts a timer; a person runs one timer at a time, so their running one is
 * stopped now. Entries belong to a project and a member of the team.
 */
export async function createEntry(db: Db, teamId: string, userId: string, body: z.infer<typeof createEntryBody>): Promise<EntryDto> {
  return db.transaction(async (trx) => {
    if (!(await TrackerProject.query(trx).findOne({ teamId, id: body.projectId }).select('id'))) {
      throw badRequest('Invalid project', [{ field: 'projectId', message: 'no such project in your team' }]);
    }
    const assignedId = body.assignedId ?? userId;
    if (!(await TeamMember.query(trx).findOne({ teamId, userId: assignedId }).select('id'))) {
      throw badRequest('Invalid assignee', [{ field: 'assignedId', message: 'not a member of your team' }]);
    }
    const start = new Date(body.start);
    const stop = body.stop ? new Date(body.stop) : null;
    if (!stop) {
      const running = await TrackerEntry.query(trx).where({ teamId, assignedId }).whereNull('stop').forUpdate();
      const now = new Date();
      for (const r of running) {
        // A timer forgotten for more than a year stops at the longest span an entry may have.
        const end = new Date(Math.min(Math.max(now.getTime(), r.start.getTime()), r.start.getTime() + MAX_ENTRY_DAYS * 86_400_000));
        await TrackerEntry.query(trx)
          .patch({ stop: end, duration: seconds(r.start, end), updatedAt: now })
          .where({ teamId, id: r.id });
      }
    }
    const created = await TrackerEntry.query(trx)
      .insert({
        teamId,
        projectId: body.projectId,
        assignedId,
        description: body.description ?? null,
        date: body.start.slice(0, 10),
        start,
        stop,
        duration: stop ? seconds(start, stop) : null,
        rate: body.rate ?? null,
        currency: body.currency ?? null,
        billed: body.billed ?? false,
      })
      .returning('*');
    return entryDto(created);
  });
}

export async function updateEntry(db: Db, teamId: string, id: string, body: z.infer<typeof updateEntryBody>): Promise<EntryDto> {
  return db.transaction(async (trx) => {
    const current = await TrackerEntry.query(trx).findOne({ teamId, id }).forUpdate();
    if (!current) throw notFound(`Entry ${id} not found`);
    const start = body.start ? new Date(body.start) : current.start;
    const stop = body.stop === undefined ? current.stop : body.stop ? new Date(body.stop) : null;
    if (stop && stop < start) throw badRequest('Invalid times', [{ field: 'stop', message: 'before start' }]);
    if (stop && seconds(start, stop) > MAX_ENTRY_DAYS * 86_400) {
      throw badRequest('Invalid times', [{ field: 'stop', message: `an entry spans at most ${MAX_ENTRY_DAYS} days` }]);
    }
    const { start: _s, stop: _t, ...rest } = body;
    const [row] = await TrackerEntry.query(trx)
      .patch({
        ...rest,
        start,
        stop,
        date: body.start ? body.start.slice(0, 10) : current.date,
        duration: stop ? seconds(start, stop) : null,
        updatedAt: new Date(),
      })
      .where({ teamId, id })
      .returning('*');
    return entryDto(row);
  });
}

export async function deleteEntry(db: Db, teamId: string, id: string): Promise<void> {
  const n = await TrackerEntry.query(db).delete().where({ teamId, id });
  if (!n) throw notFound(`Entry ${id} not found`);
}
