import { raw } from 'objection';

/**
 * PostgreSQL timestamps reach us as Date (pg's parser) or as text (json_build_object, `::text`);
 * the API sends ISO 8601 UTC either way.
 */
export function toIso(value: Date | string): string {
  return (value instanceof Date ? value : new Date(value)).toISOString();
}

export function toIsoOrNull(value: Date | string | null | undefined): string | null {
  return value === null || value === undefined ? null : toIso(value);
}

/**
 * The database's `now()` for a model's patch or insert: the time of the transaction, as knex's
 * `fn.now()` gave it, in a form Objection's typed patch accepts (it does not take knex's raw).
 */
export const dbNow = () => raw('now()');

/** The UTC day of a moment, `YYYY-MM-DD`, as the API sends dates and `date` columns hold them. */
export const isoDate = (d: Date): string => d.toISOString().slice(0, 10);
