import type { Knex } from 'knex';
import * as initial from './0001_initial';
import * as exchangeRates from './0002_exchange_rates';
import * as documentContent from './0003_document_content';
import * as uniqueDocuments from './0004_unique_documents';

/**
 * Migrations are listed here rather than discovered on disk, so they run the same under tsx, jest,
 * a compiled build or a bundle. Append new ones; never edit or reorder an applied one.
 */
const migrations: Record<string, Knex.Migration> = {
  '0001_initial': initial,
  '0002_exchange_rates': exchangeRates,
  '0003_document_content': documentContent,
  '0004_unique_documents': uniqueDocuments,
};

export const migrationSource: Knex.MigrationSource<string> = {
  getMigrations: async () => Object.keys(migrations),
  getMigrationName: (name) => name,
  getMigration: async (name) => migrations[name],
};
