import { DBError } from 'objection';

/** PostgreSQL's error codes for the constraints services turn into 409s and 400s (SQLSTATE class 23). */
const UNIQUE_VIOLATION = '23505';
const FOREIGN_KEY_VIOLATION = '23503';

interface PgError {
  code?: string;
  constraint?: string;
}

// Objection wraps the driver's error (DBError) and keeps PostgreSQL's code on `nativeError`; Knex throws it as is.
const pgError = (err: unknown): PgError => {
  if (typeof err !== 'object' || err === null) return {};
  if (err instanceof DBError) return err.nativeError as PgError;
  return err;
};

/** A duplicate key; with `constraint`, only that constraint (or index) counts. */
export function isUniqueViolation(err: unknown, constraint?: string): boolean {
  const e = pgError(err);
  return e.code === UNIQUE_VIOLATION && (constraint === undefined || e.constraint === constraint);
}

export function isForeignKeyViolation(err: unknown, constraint?: string): boolean {
  const e = pgError(err);
  return e.code === FOREIGN_KEY_VIOLATION && (constraint === undefined || e.constraint === constraint);
}
