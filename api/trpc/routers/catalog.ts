import { z } from 'zod';
import { categoryIdParams, categorySchema, createCategoryBody, updateCategoryBody } from '../../../shared/domain/categories/schema';
import { createCategory, deleteCategory, listCategories, updateCategory } from '../../../shared/domain/categories/service';
import { createTagBody, tagIdParams, tagSchema, updateTagBody } from '../../../shared/domain/tags/schema';
import { createTag, deleteTag, listTags, updateTag } from '../../../shared/domain/tags/service';
import type { ApiDeps } from '../../deps';
import { procedure, router } from '../trpc';

export const tagsRouter = ({ db }: Pick<ApiDeps, 'db'>) =>
  router({
    get: procedure('tags.read')
      .output(z.array(tagSchema))
      .query(({ ctx }) => listTags(db, ctx.principal.teamId)),
    create: procedure('tags.write')
      .input(createTagBody)
      .output(tagSchema)
      .mutation(({ ctx, input }) => createTag(db, ctx.principal.teamId, input)),
    update: procedure('tags.write')
      .input(tagIdParams.extend({ data: updateTagBody }))
      .output(tagSchema)
      .mutation(({ ctx, input }) => updateTag(db, ctx.principal.teamId, input.id, input.data)),
    delete: procedure('tags.write')
      .input(tagIdParams)
      .output(z.void())
      .mutation(async ({ ctx, input }) => {
        await deleteTag(db, ctx.principal.teamId, input.id);
      }),
  });

export const categoriesRouter = ({ db }: Pick<ApiDeps, 'db'>) =>
  router({
    get: procedure('transactions.read')
      .output(z.array(categorySchema))
      .query(({ ctx }) => listCategories(db, ctx.principal.teamId)),
    create: procedure('transactions.write')
      .input(createCategoryBody)
      .output(categorySchema)
      .mutation(({ ctx, input }) => createCategory(db, ctx.principal.teamId, input)),
    update: procedure('transactions.write')
      .input(categoryIdParams.extend({ data: updateCategoryBody }))
      .output(categorySchema)
      .mutation(({ ctx, input }) => updateCategory(db, ctx.principal.teamId, input.id, input.data)),
    delete: procedure('transactions.write')
      .input(categoryIdParams)
      .output(z.void())
      .mutation(async ({ ctx, input }) => {
        await deleteCategory(db, ctx.principal.teamId, input.id);
      }),
  });
