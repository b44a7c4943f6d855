import type { Knex } from 'knex';
import { auditTable } from './0088_audit_trail';

/**
 * The team tables made after the audit trail's migration (0088 audited those that existed): the
 * rules (0089) and the agents' proposals and their decisions (0090). A rule run's row
 * (`transaction_rule_runs`) is progress bookkeeping, updated with every batch, and is listed as
 * not audited in 0088; the changes a run makes are the transactions' own entries.
 */
const TABLES = ['transaction_rules', 'agent_actions'];

export async function up(knex: Knex): Promise<void> {
  for (const table of TABLES) await auditTable(knex, table);
}

export async function down(knex: Knex): Promise<void> {
  for (const table of TABLES) await knex.raw('drop trigger if exists audit_row on ??', [table]);
}
