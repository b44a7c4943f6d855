import type { ModelObject } from 'objection';
import type { z } from 'zod';
import type { Db } from '../../db/knex';
import { Customer, TrackerProject } from '../../db/models';
import { toIso } from '../../db/timestamps';
import { badRequest, notFound } from '../../errors';
import { newestFirstPage, type CursorRow, type Page } from '../common/cursor';
import { roundMoney } from '../currencies/money';
import type { createProjectBody, listProjectsQuery, ProjectDto, updateProjectBody } from './schema';

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
  totalAmount: roundMoney(p.totalAmount, p.currency),
  createdAt: toIso(p.createdAt),
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
