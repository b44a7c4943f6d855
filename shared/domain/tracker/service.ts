import type { z } from 'zod';
import type { Db } from '../../db/knex';
import { badRequest, notFound } from '../../errors';
import { newestFirstPage, type Page } from '../common/cursor';
import type { createEntryBody, createProjectBody, EntryDto, listEntriesQuery, listProjectsQuery, ProjectDto, updateEntryBody, updateProjectBody } from './schema';

const iso = (v: Date | string | null) => (v === null ? null : new Date(v).toISOString());

function selectProjects(db: Db, teamId: string) {
  return db('tracker_projects as p')
    .leftJoin('customers as c', 'c.id', 'p.customer_id')
    .where('p.team_id', teamId)
    .select(
      'p.*',
      db.raw('p.created_at::text as cursor_created_at'),
      db.raw(`case when c.id is null then null else json_build_object('id', c.id, 'name', c.name) end as customer`),
      db.raw(`coalesce((select sum(e.duration) from tracker_entries e where e.project_id = p.id and e.duration is not null), 0)::float8 as total_duration`),
      db.raw(`coalesce((select sum(e.duration / 3600.0 * coalesce(e.rate, p.rate, 0)) from tracker_entries e
                        where e.project_id = p.id and e.duration is not null), 0)::float8 as total_amount`),
    );
}

const projectDto = (r: any): ProjectDto => ({
  id: r.id,
  name: r.name,
  description: r.description,
  status: r.status,
  billable: r.billable,
  rate: r.rate,
  currency: r.currency,
  estimateHours: r.estimateHours,
  customer: r.customer,
  totalDuration: r.totalDuration,
  totalAmount: Math.round(r.totalAmount * 100) / 100,
  createdAt: iso(r.createdAt)!,
});

const entryDto = (r: any): EntryDto => ({
  id: r.id,
  projectId: r.projectId,
  assignedId: r.assignedId,
  description: r.description,
  date: r.date,
  start: iso(r.start)!,
  stop: iso(r.stop),
  duration: r.duration,
  rate: r.rate,
  currency: r.currency,
  billed: r.billed,
  createdAt: iso(r.createdAt)!,
});

async function assertCustomer(db: Db, teamId: string, customerId: string | null | undefined) {
  if (customerId && !(await db('customers').where({ teamId, id: customerId }).first('id'))) {
    throw badRequest('Invalid customer', [{ field: 'customerId', message: 'no such customer in your team' }]);
  }
}

export async function listProjects(db: Db, teamId: string, query: z.infer<typeof listProjectsQuery>): Promise<Page<ProjectDto>> {
  const q = selectProjects(db, teamId);
  if (query.status) q.where('p.status', query.status);
  return newestFirstPage(q, 'p', query, projectDto);
}

export async function getProject(db: Db, teamId: string, id: string): Promise<ProjectDto> {
  const [row] = await selectProjects(db, teamId).where('p.id', id);
  if (!row) throw notFound(`Project ${id} not found`);
  return projectDto(row);
}

export async function createProject(db: Db, teamId: string, body: z.infer<typeof createProjectBody>): Promise<ProjectDto> {
  await assertCustomer(db, teamId, body.customerId);
  const [row] = await db('tracker_projects').insert({ ...body, teamId }).returning('id');
  return getProject(db, teamId, row.id);
}

export async function updateProject(db: Db, teamId: string, id: string, body: z.infer<typeof updateProjectBody>): Promise<ProjectDto> {
  await assertCustomer(db, teamId, body.customerId);
  const n = await db('tracker_projects').where({ teamId, id }).update({ ...body, updatedAt: new Date() });
  if (!n) throw notFound(`Project ${id} not found`);
  return getProject(db, teamId, id);
}

export async function deleteProject(db: Db, teamId: string, id: string): Promise<void> {
  const n = await db('tracker_projects').where({ teamId, id }).delete();
  if (!n) throw notFound(`Project ${id} not found`);
}

export async function listEntries(db: Db, teamId: string, query: z.infer<typeof listEntriesQuery>) {
  const q = db('tracker_entries').where({ teamId }).whereBetween('date', [query.from, query.to]).orderBy([{ column: 'start', order: 'desc' }, { column: 'id', order: 'desc' }]);
  if (query.projectId) q.where({ projectId: query.projectId });
  const rows = (await q).map(entryDto);
  return { data: rows, meta: { totalDuration: rows.reduce((s, e) => s + (e.duration ?? 0), 0), from: query.from, to: query.to } };
}

const seconds = (start: Date, stop: Date) => Math.round((stop.getTime() - start.getTime()) / 1000);

/**
 * Without `stop` this starts a timer; a person runs one timer at a time, so their running one is
 * stopped now. Entries belong to a project and a member of the team.
 */
export async function createEntry(db: Db, teamId: string, userId: string, body: z.infer<typeof createEntryBody>): Promise<EntryDto> {
  return db.transaction(async (trx) => {
    if (!(await trx('tracker_projects').where({ teamId, id: body.projectId }).first('id'))) {
      throw badRequest('Invalid project', [{ field: 'projectId', message: 'no such project in your team' }]);
    }
    const assignedId = body.assignedId ?? userId;
    if (!(await trx('team_members').where({ teamId, userId: assignedId }).first('id'))) {
      throw badRequest('Invalid assignee', [{ field: 'assignedId', message: 'not a member of your team' }]);
    }
    const start = new Date(body.start);
    const stop = body.stop ? new Date(body.stop) : null;
    if (!stop) {
      const running = await trx('tracker_entries').where({ teamId, assignedId }).whereNull('stop').forUpdate();
      const now = new Date();
      for (const r of running) {
        const end = now < new Date(r.start) ? new Date(r.start) : now;
        await trx('tracker_entries').where({ id: r.id }).update({ stop: end, duration: seconds(new Date(r.start), end), updatedAt: now });
      }
    }
    const [row] = await trx('tracker_entries')
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
    return entryDto(row);
  });
}

export async function updateEntry(db: Db, teamId: string, id: string, body: z.infer<typeof updateEntryBody>): Promise<EntryDto> {
  return db.transaction(async (trx) => {
    const current = await trx('tracker_entries').where({ teamId, id }).forUpdate().first();
    if (!current) throw notFound(`Entry ${id} not found`);
    const start = body.start ? new Date(body.start) : new Date(current.start);
    const stop = body.stop === undefined ? (current.stop ? new Date(current.stop) : null) : body.stop ? new Date(body.stop) : null;
    if (stop && stop < start) throw badRequest('Invalid times', [{ field: 'stop', message: 'before start' }]);
    const { start: _s, stop: _t, ...rest } = body;
    const [row] = await trx('tracker_entries')
      .where({ teamId, id })
      .update({ ...rest, start, stop, date: body.start ? body.start.slice(0, 10) : current.date, duration: stop ? seconds(start, stop) : null, updatedAt: new Date() })
      .returning('*');
    return entryDto(row);
  });
}

export async function deleteEntry(db: Db, teamId: string, id: string): Promise<void> {
  const n = await db('tracker_entries').where({ teamId, id }).delete();
  if (!n) throw notFound(`Entry ${id} not found`);
}
