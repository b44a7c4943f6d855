import { pageOf } from '../../../shared/domain/common/page';
import { z } from 'zod';
import {
  createCustomerBody,
  customerIdParams,
  customerSchema,
  listCustomersQuery,
  updateCustomerBody,
} from '../../../shared/domain/customers/schema';
import { createCustomer, deleteCustomer, getCustomer, listCustomers, updateCustomer } from '../../../shared/domain/customers/service';
import type { ApiDeps } from '../../deps';
import { procedure, router } from '../trpc';

export const customersRouter = ({ db }: Pick<ApiDeps, 'db'>) =>
  router({
    get: procedure('customers.read')
      .input(listCustomersQuery.prefault({}))
      .output(pageOf(customerSchema))
      .query(({ ctx, input }) => listCustomers(db, ctx.principal.teamId, input)),
    getById: procedure('customers.read')
      .input(customerIdParams)
      .output(customerSchema)
      .query(({ ctx, input }) => getCustomer(db, ctx.principal.teamId, input.id)),
    create: procedure('customers.write')
      .input(createCustomerBody)
      .output(customerSchema)
      .mutation(({ ctx, input }) => createCustomer(db, ctx.principal.teamId, input)),
    update: procedure('customers.write')
      .input(customerIdParams.extend({ data: updateCustomerBody }))
      .output(customerSchema)
      .mutation(({ ctx, input }) => updateCustomer(db, ctx.principal.teamId, input.id, input.data)),
    delete: procedure('customers.write')
      .input(customerIdParams)
      .output(z.void())
      .mutation(async ({ ctx, input }) => {
        await deleteCustomer(db, ctx.principal.teamId, input.id);
      }),
  });
