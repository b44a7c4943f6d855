import { apiKeyActivities } from './api-keys/notify';
import { bankingActivities } from './banking/sync';
import type { ActivityDeps } from './deps';

export { createActivityDeps, closeActivityDeps, type ActivityDeps } from './deps';

/** Every activity, bound to its dependencies. The worker registers the result as is. */
export function createActivities(deps: ActivityDeps) {
  return {
    ...apiKeyActivities(deps),
    ...bankingActivities(deps),
  };
}

export type Activities = ReturnType<typeof createActivities>;
