import { createCustomerBody, customerIdParams, listCustomersQuery, updateCustomerBody } from '../../../shared/domain/customers/schema';
import { createCustomer, deleteCustomer, getCustomer, listCustomers, updateCustomer } from '../../../shared/domain/customers/service';
import type { ApiDeps } from '../../deps';
import { procedure, router } from '../trpc';

export const customersRouter = ({ db }: Pick<ApiDeps, 'db'>) =>
  router({
    get: procedure('customers.get')
      .input(listCustomersQuery.optional())
      .query(({ ctx, input }) => listCustomers(db, ctx.principal.teamId, listCustomersQuery.parse(input ?? {}))),
    getById: procedure('customers.getById').input(customerIdParams).query(({ ctx, input }) => getCustomer(db, ctx.principal.teamId, input.id)),
    create: procedure('customers.create').input(createCustomerBody).mutation(({ ctx, input }) => createCustomer(db, ctx.principal.teamId, input)),
    update: procedure('customers.update')
      .input(customerIdParams.extend({ data: updateCustomerBody }))
      .mutation(({ ctx, input }) => updateCustomer(db, ctx.principal.teamId, input.id, input.data)),
    delete: procedure('customers.delete')
      .input(customerIdParams)
      .mutation(async ({ ctx, input }) => {
        await deleteCustomer(db, ctx.principal.teamId, input.id);
        return { id: input.id, deleted: true };
      }),
  });
