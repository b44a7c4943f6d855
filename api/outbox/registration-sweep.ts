import { deleteExpiredRegistrations } from '../../shared/domain/oauth/registration';
import type { ApiDeps } from '../deps';
import { repeatingPass, type RepeatingPass } from './repeating-pass';

/** Rows one delete takes; a pass deletes batches until fewer are left. */
const BATCH = 500;

/**
 * Deletes self-registered OAuth clients that nobody consented to before their registration expired
 * (OAUTH_REGISTRATION_TTL). Processes sweeping at once skip each other's rows (skip locked).
 */
export function startRegistrationSweep(deps: Pick<ApiDeps, 'db' | 'logger'>, opts: { intervalMs: number }): RepeatingPass {
  const log = deps.logger.child({ component: 'registration-sweep' });
  return repeatingPass(
    async () => {
      let total = 0;
      for (;;) {
        const deleted = await deleteExpiredRegistrations(deps.db, { limit: BATCH });
        total += deleted;
        if (deleted < BATCH) break;
      }
      if (total > 0) log.info({ deleted: total }, 'deleted OAuth client registrations nobody consented to');
      return total;
    },
    { intervalMs: opts.intervalMs, log, what: 'registration sweep', audit: 'outbox:registration-sweep' },
  );
}
