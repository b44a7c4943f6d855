import type { Knex } from 'knex';
import type { ModelObject } from 'objection';
import type { Db } from '../../db/knex';
import { Customer, CustomerTag, Tag } from '../../db/models';
import { toIso } from '../../db/timestamps';
import { badRequest, notFound } from '../../errors';
import type { Page } from '../common/page';
import { containsPattern } from '../common/query';
import { sortedPage, type SortKeys } from '../common/sort';
import type { CreateCustomerBody, CUSTOMER_SORT_FIELDS, CustomerDto, ListCustomersQuery, UpdateCustomerBody } from './schema';

/** A customer as the list selects it: its columns and its tags as json. */
type CustomerRow = ModelObject<Customer> & { tags: CustomerDto['tags'] };

/** Where each field of `sort=` lives, each with a (team_id, field, id) index (migrations 0001, 0086). */
const SORT_KEYS: SortKeys<(typeof CUSTOMER_SORT_FIELDS)[number]> = {
  fields: { name: { sql: 'c.name', part: 'text' }, createdAt: { sql: 'c.created_at', part: 'timestamp' } },
  id: 'c.id',
};

// A list query (keyset, tags as a json aggregate in the same round trip): typed Knex.
function selectCustomers(db: Db, teamId: string) {
  return db('customers as c')
    .where('c.team_id', teamId)
    .select<CustomerRow[]>(
      'c.*',
      db.raw(`coalesce((select json_agg(json_build_object('id', g.id, 'name', g.name) order by g.name)
                        from customer_tags ct join tags g on g.id = ct.tag_id where ct.customer_id = c.id), '[]') as tags`),
    );
}

function toDto({ teamId: _team, createdAt, updatedAt, ...fields }: CustomerRow): CustomerDto {
  return { ...fields, createdAt: toIso(createdAt), updatedAt: toIso(updatedAt) };
}

export async function listCustomers(db: Db, teamId: string, query: ListCustomersQuery): Promise<Page<CustomerDto>> {
  const q = selectCustomers(db, teamId);
  if (query.q) {
    const like = containsPattern(query.q);
    q.where((w) => {
      w.whereILike('c.name', like).orWhereILike('c.email', like).orWhereILike('c.contact', like);
    });
  }
  return sortedPage(db, q, SORT_KEYS, query, toDto);
}

export async function getCustomer(db: Db, teamId: string, id: string): Promise<CustomerDto> {
  const row = (await selectCustomers(db, teamId).where('c.id', id)).at(0);
  if (!row) throw notFound(`Customer ${id} not found`);
  return toDto(row);
}

export async function createCustomer(db: Db, teamId: string, body: CreateCustomerBody): Promise<CustomerDto> {
  const id = await db.transaction(async (trx) => {
    const { tags, ...fields } = body;
    const created = await Customer.query(trx).insert({ ...fields, teamId });
    if (tags) await replaceTags(trx, teamId, created.id, tags);
    return created.id;
  });
  return getCustomer(db, teamId, id);
}

export async function updateCustomer(db: Db, teamId: string, id: string, body: UpdateCustomerBody): Promise<CustomerDto> {
  await db.transaction(async (trx) => {
    const { tags, ...fields } = body;
    const n = await Customer.query(trx)
      .patch({ ...fields, updatedAt: new Date() })
      .where({ teamId, id });
    if (!n) throw notFound(`Customer ${id} not found`);
    if (tags) await replaceTags(trx, teamId, id, tags);
  });
  return getCustomer(db, teamId, id);
}

/** Invoices and projects keep their history: their customer link is cleared, not deleted. */
export async function deleteCustomer(db: Db, teamId: string, id: string): Promise<void> {
  const n = await Customer.query(db).delete().where({ teamId, id });
  if (!n) throw notFound(`Customer ${id} not found`);
}

async function replaceTags(db: Knex, teamId: string, customerId: string, tags: string[]) {
  const unique = [...new Set(tags)];
  const found = new Set(unique.length ? (await Tag.query(db).where({ teamId }).whereIn('id', unique).select('id')).map((t) => t.id) : []);
  const missing = unique.filter((t) => !found.has(t));
  if (missing.length) throw badRequest('Invalid tags', [{ field: 'tags', message: `no such tags in your team: ${missing.join(', ')}` }]);
  await CustomerTag.query(db).delete().where({ teamId, customerId });
  if (unique.length) await CustomerTag.query(db).insert(unique.map((tagId) => ({ teamId, customerId, tagId })));
}
