import { categoryIdParams, createCategoryBody, updateCategoryBody } from '../../../shared/domain/categories/schema';
import { createCategory, deleteCategory, listCategories, updateCategory } from '../../../shared/domain/categories/service';
import { createTagBody, tagIdParams, updateTagBody } from '../../../shared/domain/tags/schema';
import { createTag, deleteTag, listTags, updateTag } from '../../../shared/domain/tags/service';
import type { ApiDeps } from '../../deps';
import { procedure, router } from '../trpc';

export const tagsRouter = ({ db }: Pick<ApiDeps, 'db'>) =>
  router({
    get: procedure('tags.get').query(({ ctx }) => listTags(db, ctx.principal.teamId)),
    create: procedure('tags.create').input(createTagBody).mutation(({ ctx, input }) => createTag(db, ctx.principal.teamId, input)),
    update: procedure('tags.update')
      .input(tagIdParams.extend({ data: updateTagBody }))
      .mutation(({ ctx, input }) => updateTag(db, ctx.principal.teamId, input.id, input.data)),
    delete: procedure('tags.delete')
      .input(tagIdParams)
      .mutation(async ({ ctx, input }) => {
        await deleteTag(db, ctx.principal.teamId, input.id);
        return { id: input.id, deleted: true };
      }),
  });

export const categoriesRouter = ({ db }: Pick<ApiDeps, 'db'>) =>
  router({
    get: procedure('categories.get').query(({ ctx }) => listCategories(db, ctx.principal.teamId)),
    create: procedure('categories.create').input(createCategoryBody).mutation(({ ctx, input }) => createCategory(db, ctx.principal.teamId, input)),
    update: procedure('categories.update')
      .input(categoryIdParams.extend({ data: updateCategoryBody }))
      .mutation(({ ctx, input }) => updateCategory(db, ctx.principal.teamId, input.id, input.data)),
    delete: procedure('categories.delete')
      .input(categoryIdParams)
      .mutation(async ({ ctx, input }) => {
        await deleteCategory(db, ctx.principal.teamId, input.id);
        return { id: input.id, deleted: true };
      }),
  });
