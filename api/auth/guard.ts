import { hasTeam, type Caller, type Principal } from '../../shared/domain/auth/principal';
import { expandScopes, type ResourceScope } from '../../shared/domain/auth/scopes';
import { withinTeam } from '../../shared/db/team-wall';
import { forbidden } from '../../shared/errors';

/** Throws 403 (`forbidden`) when the caller lacks a scope the operation needs. */
export function assertScopes(caller: Caller, required: readonly ResourceScope[]): void {
  const have = expandScopes(caller.scopes);
  if (required.every((s) => have.has(s))) return;
  throw forbidden(
    `Insufficient permissions. Required scopes: ${required.join(', ')}. Your scopes: ${caller.scopes.join(', ') || '(none)'}`,
  );
}

/** The caller as a team's principal; 403 for a session user who belongs to no team (yet). */
export function requireTeam(caller: Caller): Principal {
  if (!hasTeam(caller)) throw forbidden('User does not belong to any team');
  return caller;
}

/**
 * How a caller enters an operation, through either door: 403 without every scope it names; then,
 * unless it acts on the caller themselves (`forUser`), inside the caller's team's wall, so that what
 * `serve` reads and writes passes the team's row-level security too.
 */
export function enter<T>(op: { scopes: readonly ResourceScope[]; forUser?: boolean }, caller: Caller, serve: () => Promise<T>): Promise<T> {
  assertScopes(caller, op.scopes);
  return op.forUser ? serve() : withinTeam(requireTeam(caller).teamId, serve);
}
