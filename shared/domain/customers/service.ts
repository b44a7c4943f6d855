import type { Db } from '../../db/knex';
import { containsPattern } from '../common/query';
import { badRequest, notFound } from '../../errors';
import { newestFirstPage, type Page } from '../common/cursor';
import type { CreateCustomerBody, CustomerDto, ListCustomersQuery, UpdateCustomerBody } from './schema';

const iso = (v: Date | string) => new Date(v).toISOString();

function selectCustomers(db: Db, teamId: string) {
  return db('customers as c')
    .where('c.team_id', teamId)
    .select(
      'c.*',
      // Full microsecond precision for the cursor: a JS Date would round it to milliseconds.
      db.raw('c.created_at::text as cursor_created_at'),
      db.raw(`coalesce((select json_agg(json_build_object('id', g.id, 'name', g.name) order by g.name)
                        from customer_tags ct join tags g on g.id = ct.tag_id where ct.customer_id = c.id), '[]') as tags`),
    );
}

function toDto(r: any): CustomerDto {
  const { teamId: _team, cursorCreatedAt: _cursor, createdAt, updatedAt, ...rest } = r;
  return { ...rest, createdAt: iso(createdAt), updatedAt: iso(updatedAt) };
}

export async function listCustomers(db: Db, teamId: string, query: ListCustomersQuery): Promise<Page<CustomerDto>> {
  const q = selectCustomers(db, teamId);
  if (query.q) {
    const like = containsPattern(query.q);
    q.where((w) => w.whereILike('c.name', like).orWhereILike('c.email', like).orWhereILike('c.contact', like));
  }
  return newestFirstPage(q, 'c', query, toDto);
}

export async function getCustomer(db: Db, teamId: string, id: string): Promise<CustomerDto> {
  const [row] = await selectCustomers(db, teamId).where('c.id', id);
  if (!row) throw notFound(`Customer ${id} not found`);
  return toDto(row);
}

export async function createCustomer(db: Db, teamId: string, body: CreateCustomerBody): Promise<CustomerDto> {
  const id = await db.transaction(async (trx) => {
    const { tags, ...fields } = body;
    const [row] = await trx('customers').insert({ ...fields, teamId }).returning('id');
    if (tags) await replaceTags(trx, teamId, row.id, tags);
    return row.id as string;
  });
  return getCustomer(db, teamId, id);
}

export async function updateCustomer(db: Db, teamId: string, id: string, body: UpdateCustomerBody): Promise<CustomerDto> {
  await db.transaction(async (trx) => {
    const { tags, ...fields } = body;
    const n = await trx('customers').where({ teamId, id }).update({ ...fields, updatedAt: new Date() });
    if (!n) throw notFound(`Customer ${id} not found`);
    if (tags) await replaceTags(trx, teamId, id, tags);
  });
  return getCustomer(db, teamId, id);
}

/** Invoices and projects keep their history: their customer link is cleared, not deleted. */
export async function deleteCustomer(db: Db, teamId: string, id: string): Promise<void> {
  const n = await db('customers').where({ teamId, id }).delete();
  if (!n) throw notFound(`Customer ${id} not found`);
}

async function replaceTags(db: Db, teamId: string, customerId: string, tags: string[]) {
  const unique = [...new Set(tags)];
  const found = unique.length ? await db('tags').where({ teamId }).whereIn('id', unique).pluck('id') : [];
  const missing = unique.filter((t) => !found.includes(t));
  if (missing.length) throw badRequest('Invalid tags', [{ field: 'tags', message: `no such tags in your team: ${missing.join(', ')}` }]);
  await db('customer_tags').where({ teamId, customerId }).delete();
  if (unique.length) await db('customer_tags').insert(unique.map((tagId) => ({ teamId, customerId, tagId })));
}
