import { z } from 'zod';
import { pageOf } from '../../../shared/domain/common/page';
import { createProduct, deleteProduct, getProduct, listProducts, updateProduct } from '../../../shared/domain/invoice-products/service';
import {
  createProductBody,
  listProductsQuery,
  productIdParams,
  productSchema,
  updateProductBody,
} from '../../../shared/domain/invoice-products/schema';
import type { ApiDeps } from '../../deps';
import { procedure, router } from '../trpc';

export const invoiceProductsRouter = ({ db }: Pick<ApiDeps, 'db'>) =>
  router({
    list: procedure('invoices.read')
      .input(listProductsQuery.prefault({}))
      .output(pageOf(productSchema))
      .query(({ ctx, input }) => listProducts(db, ctx.principal.teamId, input)),
    getById: procedure('invoices.read')
      .input(productIdParams)
      .output(productSchema)
      .query(({ ctx, input }) => getProduct(db, ctx.principal.teamId, input.id)),
    create: procedure('invoices.write')
      .input(createProductBody)
      .output(productSchema)
      .mutation(({ ctx, input }) => createProduct(db, ctx.principal.teamId, input)),
    update: procedure('invoices.write')
      .input(productIdParams.extend({ data: updateProductBody }))
      .output(productSchema)
      .mutation(({ ctx, input }) => updateProduct(db, ctx.principal.teamId, input.id, input.data)),
    delete: procedure('invoices.write')
      .input(productIdParams)
      .output(z.void())
      .mutation(async ({ ctx, input }) => {
        await deleteProduct(db, ctx.principal.teamId, input.id);
      }),
  });
