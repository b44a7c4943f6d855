import { decisionBody, inboxIdParams, listInboxQuery, updateInboxBody } from '../../../shared/domain/inbox/schema';
import { decide, deleteInboxItem, getInboxItem, listInbox, matchManually, updateInboxItem } from '../../../shared/domain/inbox/service';
import type { ApiDeps } from '../../deps';
import { procedure, router } from '../trpc';

export const inboxRouter = ({ db, temporal }: Pick<ApiDeps, 'db' | 'temporal'>) =>
  router({
    get: procedure('inbox.get').input(listInboxQuery.optional()).query(({ ctx, input }) => listInbox(db, ctx.principal.teamId, listInboxQuery.parse(input ?? {}))),
    getById: procedure('inbox.getById').input(inboxIdParams).query(({ ctx, input }) => getInboxItem(db, ctx.principal.teamId, input.id)),
    update: procedure('inbox.update').input(inboxIdParams.extend({ data: updateInboxBody })).mutation(({ ctx, input }) => updateInboxItem(db, ctx.principal.teamId, input.id, input.data)),
    delete: procedure('inbox.delete')
      .input(inboxIdParams)
      .mutation(async ({ ctx, input }) => {
        await deleteInboxItem(db, ctx.principal.teamId, input.id);
        return { id: input.id, deleted: true };
      }),
    confirmMatch: procedure('inbox.confirmMatch')
      .input(inboxIdParams.merge(decisionBody))
      .mutation(async ({ ctx, input }) => ({ outcome: await decide(db, temporal, ctx.principal.teamId, input.id, input.transactionId, 'confirm') })),
    declineMatch: procedure('inbox.declineMatch')
      .input(inboxIdParams.merge(decisionBody))
      .mutation(async ({ ctx, input }) => ({ outcome: await decide(db, temporal, ctx.principal.teamId, input.id, input.transactionId, 'decline') })),
    matchTransaction: procedure('inbox.matchTransaction').input(inboxIdParams.merge(decisionBody)).mutation(({ ctx, input }) => matchManually(db, ctx.principal.teamId, input.id, input.transactionId)),
  });
