import type { Knex } from 'knex';

export interface InsertFault {
  /** Lets the inserts through again (the worker's retries then succeed). */
  clear(): Promise<void>;
}

/**
 * A fault in a test's own database, armed at once: every insert into `table` whose new row matches
 * `when` (an SQL condition on `new`, default every row) fails with `message`, so the step writing it
 * keeps being retried until `clear()`. `name` keeps several faults in one database apart.
 */
export async function armInsertFault(
  db: Knex,
  name: string,
  fault: { table: string; when?: string; message: string },
): Promise<InsertFault> {
  const flag = `${name}_fails`;
  await db.raw(`
    create table ${flag} (x int);
    create function fail_${name}() returns trigger language plpgsql as $$
    begin
      if (${fault.when ?? 'true'}) and exists (select 1 from ${flag}) then
        raise exception '${fault.message.replaceAll("'", "''")}';
      end if;
      return new;
    end $$;
    create trigger fail_${name} before insert on ${fault.table} for each row execute function fail_${name}();
    insert into ${flag} values (1);
  `);
  return {
    clear: async () => {
      await db(flag).delete();
    },
  };
}
