import { pageOf } from '../../../shared/domain/common/page';
import { z } from 'zod';
import {
  decisionBody,
  decisionResultSchema,
  inboxIdParams,
  inboxItemSchema,
  listInboxQuery,
  updateInboxBody,
} from '../../../shared/domain/inbox/schema';
import { decide, deleteInboxItem, getInboxItem, listInbox, matchManually, updateInboxItem } from '../../../shared/domain/inbox/service';
import type { ApiDeps } from '../../deps';
import { procedure, router } from '../trpc';

/** An item and the transaction a decision or a manual match is about. */
const decisionInput = inboxIdParams.extend(decisionBody.shape);

export const inboxRouter = ({ db, temporal }: Pick<ApiDeps, 'db' | 'temporal'>) =>
  router({
    get: procedure('inbox.read')
      .input(listInboxQuery.prefault({}))
      .output(pageOf(inboxItemSchema))
      .query(({ ctx, input }) => listInbox(db, ctx.principal.teamId, input)),
    getById: procedure('inbox.read')
      .input(inboxIdParams)
      .output(inboxItemSchema)
      .query(({ ctx, input }) => getInboxItem(db, ctx.principal.teamId, input.id)),
    update: procedure('inbox.write')
      .input(inboxIdParams.extend({ data: updateInboxBody }))
      .output(inboxItemSchema)
      .mutation(({ ctx, input }) => updateInboxItem(db, ctx.principal.teamId, input.id, input.data)),
    delete: procedure('inbox.write')
      .input(inboxIdParams)
      .output(z.void())
      .mutation(async ({ ctx, input }) => {
        await deleteInboxItem(db, ctx.principal.teamId, input.id);
      }),
    confirmMatch: procedure('inbox.write')
      .input(decisionInput)
      .output(decisionResultSchema)
      .mutation(async ({ ctx, input }) => ({
        outcome: await decide(db, temporal, ctx.principal.teamId, input.id, input.transactionId, 'confirm'),
      })),
    declineMatch: procedure('inbox.write')
      .input(decisionInput)
      .output(decisionResultSchema)
      .mutation(async ({ ctx, input }) => ({
        outcome: await decide(db, temporal, ctx.principal.teamId, input.id, input.transactionId, 'decline'),
      })),
    matchTransaction: procedure('inbox.write')
      .input(decisionInput)
      .output(inboxItemSchema)
      .mutation(({ ctx, input }) => matchManually(db, ctx.principal.teamId, input.id, input.transactionId)),
  });
