import type { Logger } from '../../shared/logger';
import type { Principal } from '../../shared/domain/auth/principal';

/** What the middleware chain puts on ctx.state, typed once here. */
export interface AppState {
  requestId: string;
  log: Logger;
  principal?: Principal;
  /** Set by an operation's door that counted the request itself (api/metrics.ts). */
  metered?: boolean;
}

/**
 * The state the access log gives each request: its logger, bound to its id, is made when something
 * first logs with it (most requests log nothing at the levels production runs, and a child logger per
 * request costs). A class rather than a getter defined on koa's plain state object: V8 gives an
 * object each getter closure is defined on a hidden class of its own in the old generation, which kept
 * every request's context (rows, response) alive until a full collection.
 */
export class RequestState implements AppState {
  principal?: Principal;
  metered = false;
  private own?: Logger;

  constructor(
    public requestId: string,
    private readonly logger: Logger,
  ) {}

  get log(): Logger {
    return (this.own ??= this.logger.child({ requestId: this.requestId }));
  }
}
