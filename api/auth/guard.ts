import { hasTeam, type Caller, type Principal } from '../../shared/domain/auth/principal';
import { expandScopes, type ResourceScope } from '../../shared/domain/auth/scopes';
import { asActor, withinTeam, type AuditActor } from '../../shared/db/team-wall';
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

/** The audit trail's actor for a caller's call of an operation: the user, and the credential that acted. */
export function actorOf(operation: string, caller: Caller, request: { requestId: string; ip: string }): AuditActor {
  return {
    op: operation,
    actor: 'user',
    actorId: caller.userId,
    cred: caller.kind,
    credId: caller.kind === 'api_key' ? caller.apiKeyId : caller.kind === 'oauth' ? caller.oauthApplicationId : null,
    req: request.requestId,
    ip: request.ip,
  };
}

/**
 * How a caller enters an operation, through either door: 403 without every scope it names; then,
 * unless it acts on the caller themselves (`forUser`), inside the caller's team's wall, so that what
 * `serve` reads and writes passes the team's row-level security too. A mutation runs as its caller's
 * audit actor, so each row it writes leaves an entry naming the operation, the user and the
 * credential (migration 0088); reads need none and send none.
 */
export function enter<T>(
  op: { name: string; kind: 'query' | 'mutation'; scopes: readonly ResourceScope[]; forUser?: boolean },
  caller: Caller,
  request: { requestId: string; ip: string },
  serve: () => Promise<T>,
): Promise<T> {
  assertScopes(caller, op.scopes);
  const walled = op.forUser ? serve : () => withinTeam(requireTeam(caller).teamId, serve);
  return op.kind === 'mutation' ? asActor(actorOf(op.name, caller, request), walled) : walled();
}
