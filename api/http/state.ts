import type { Logger } from '../../shared/logger';
import type { Principal } from '../../shared/domain/auth/principal';

/** What the middleware chain puts on ctx.state, typed once here. */
export interface AppState {
  requestId: string;
  log: Logger;
  principal?: Principal;
}
