import type { ApiDeps } from '../deps';
import { transactionsRouter } from './routers/transactions';
import { router } from './trpc';

export const createAppRouter = (deps: ApiDeps) =>
  router({
    transactions: transactionsRouter(deps),
  });

/** The type tRPC clients import: `createTRPCClient<AppRouter>(…)`. */
export type AppRouter = ReturnType<typeof createAppRouter>;
