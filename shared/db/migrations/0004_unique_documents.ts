import type { Knex } from 'knex';

/**
 * One live document per team and content. Two deliveries of the same file processed at the same
 * moment each found no document and each inserted one; the database now decides. Duplicates made
 * before are merged first: same bytes, same storage key, so pointing their users at the oldest loses nothing.
 * Likewise one attachment per transaction and document, however often the document was confirmed.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
create temporary table document_duplicates on commit drop as
  select id, first_value(id) over (partition by team_id, sha256 order by created_at, id) as keep
  from documents where deleted_at is null;
delete from document_duplicates where id = keep;
update inbox_items i set document_id = d.keep from document_duplicates d where i.document_id = d.id;
update transaction_attachments a set document_id = d.keep from document_duplicates d where a.document_id = d.id;
update documents set deleted_at = now() where id in (select id from document_duplicates);
create unique index documents_team_sha256_live_unique on documents (team_id, sha256) where deleted_at is null;
delete from transaction_attachments a using transaction_attachments b
  where a.transaction_id = b.transaction_id and a.document_id = b.document_id and (a.created_at, a.id) > (b.created_at, b.id);
create unique index transaction_attachments_document_unique on transaction_attachments (transaction_id, document_id);
`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index if exists transaction_attachments_document_unique; drop index if exists documents_team_sha256_live_unique');
}
