import type { Principal } from '../../shared/domain/auth/principal';
import { expandScopes } from '../../shared/domain/auth/scopes';
import { forbidden } from '../../shared/errors';
import { REQUIRED_SCOPES, type Operation } from './required-scopes';

/** Throws the spec's 403 when the principal lacks a scope the operation needs. */
export function assertScopes(principal: Principal, operation: Operation): void {
  const required: readonly string[] = REQUIRED_SCOPES[operation];
  const have = expandScopes(principal.scopes);
  if (required.every((s) => have.has(s))) return;
  throw forbidden(
    `Insufficient permissions. Required scopes: ${required.join(', ')}. Your scopes: ${principal.scopes.join(', ') || '(none)'}`,
  );
}
