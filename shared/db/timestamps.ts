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
