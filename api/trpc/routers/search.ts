import { z } from 'zod';
import { searchHitSchema, searchQuery } from '../../../shared/domain/search/schema';
import { search } from '../../../shared/domain/search/service';
import type { ApiDeps } from '../../deps';
import { procedure, router } from '../trpc';

export const searchRouter = ({ db }: Pick<ApiDeps, 'db'>) =>
  router({
    query: procedure('search.read')
      .input(searchQuery)
      .output(z.array(searchHitSchema))
      .query(({ ctx, input }) => search(db, ctx.principal, input)),
  });
