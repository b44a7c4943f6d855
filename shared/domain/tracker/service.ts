import type { ModelObject } from 'objection';
import type { z } from 'zod';
import type { Db } from '../../db/knex';
import { Customer, TeamMember, TrackerEntry, TrackerProject } from '../../db/models';
import { toIso, toIsoOrNull } from '../../db/timestamps';
import { badRequest, notFound } from '../../errors';
import { newestFirstPage, type CursorRow, type Page } from '../common/cursor';
import type {
  createEntryBody,
  createProjectBody,
  EntryDto,
  entryRangeMetaSchema,
  listEntriesQuery,
  listProjectsQuery,
  ProjectDto,
  updateEntryBody,
  updateProjectBody,
} from './schema';
import { MAX_ENTRY_DAYS } from './schema';

/** A project as the list selects it: its columns, its cursor key, its customer and its tracked totals. */
type ProjectRow = ModelObject<TrackerProject> &
  CursorRow & { customer: ProjectDto['customer']; totalDuration: number; totalAmount: number };

// A list query (keyset, customer and totals in the same round trip): typed Knex.
function selectProjects(db: Db, teamId: string) {
  return db('tracker_projects as p')
    .leftJoin('customers as c', 'c.id', 'p.customer_id')
    .where('p.team_id', teamId)
    .select<ProjectRow[]>(
      'p.*',
      db.raw('p.created_at::text as cursor_created_at'),
      db.raw(`case when c.id is null then null else json_build_object('id', c.id, 'name', c.name) end as customer`),
      db.raw(
        `coalesce((select sum(e.duration) from tracker_entries e where e.project_id = p.id and e.duration is not null), 0)::float8 as total_duration`,
      ),
      db.raw(`coalesce((select sum(e.duration / 3600.0 * coalesce(e.rate, p.rate, 0)) from tracker_entries e
                        where e.project_id = p.id and e.duration is not null), 0)::float8 as total_amount`),
    );
}

const projectDto = (p: ProjectRow): ProjectDto => ({
  id: p.id,
  name: p.name,
  description: p.description,
  status: p.status,
  billable: p.billable,
  rate: p.rate,
  currency: p.currency,
  estimateHours: p.estimateHours,
  customer: p.customer,
  totalDuration: p.totalDuration,
  totalAmount: Math.round(p.totalAmount * 100) / 100,
  createdAt: toIso(p.createdAt),
});

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

async function assertCustomer(db: Db, teamId: string, customerId: string | null | undefined) {
  if (customerId && !(await Customer.query(db).findOne({ teamId, id: customerId }).select('id'))) {
    throw badRequest('Invalid customer', [{ field: 'customerId', message: 'no such customer in your team' }]);
  }
}

export async function listProjects(db: Db, teamId: string, query: z.infer<typeof listProjectsQuery>): Promise<Page<ProjectDto>> {
  const q = selectProjects(db, teamId);
  if (query.status) q.where('p.status', query.status);
  return newestFirstPage(q, 'p', query, projectDto);
}

export async function getProject(db: Db, teamId: string, id: string): Promise<ProjectDto> {
  const row = (await selectProjects(db, teamId).where('p.id', id)).at(0);
  if (!row) throw notFound(`Project ${id} not found`);
  return projectDto(row);
}

export async function createProject(db: Db, teamId: string, body: z.infer<typeof createProjectBody>): Promise<ProjectDto> {
  await assertCustomer(db, teamId, body.customerId);
  const created = await TrackerProject.query(db).insert({ ...body, teamId });
  return getProject(db, teamId, created.id);
}

export async function updateProject(db: Db, teamId: string, id: string, body: z.infer<typeof updateProjectBody>): Promise<ProjectDto> {
  await assertCustomer(db, teamId, body.customerId);
  const n = await TrackerProject.query(db)
    .patch({ ...body, updatedAt: new Date() })
    .where({ teamId, id });
  if (!n) throw notFound(`Project ${id} not found`);
  return getProject(db, teamId, id);
}

export async function deleteProject(db: Db, teamId: string, id: string): Promise<void> {
  const n = await TrackerProject.query(db).delete().where({ teamId, id });
  if (!n) throw notFound(`Project ${id} not found`);
}

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
