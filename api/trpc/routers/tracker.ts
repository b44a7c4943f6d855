import { pageOf } from '../../../shared/domain/common/page';
import { z } from 'zod';
import {
  createEntryBody,
  createProjectBody,
  entryRangeMetaSchema,
  entrySchema,
  idParams,
  listEntriesQuery,
  listProjectsQuery,
  projectSchema,
  updateEntryBody,
  updateProjectBody,
} from '../../../shared/domain/tracker/schema';
import {
  createEntry,
  createProject,
  deleteEntry,
  deleteProject,
  getProject,
  listEntries,
  listProjects,
  updateEntry,
  updateProject,
} from '../../../shared/domain/tracker/service';
import type { ApiDeps } from '../../deps';
import { procedure, router } from '../trpc';

export const trackerProjectsRouter = ({ db }: Pick<ApiDeps, 'db'>) =>
  router({
    get: procedure('tracker-projects.read')
      .input(listProjectsQuery.prefault({}))
      .output(pageOf(projectSchema))
      .query(({ ctx, input }) => listProjects(db, ctx.principal.teamId, input)),
    getById: procedure('tracker-projects.read')
      .input(idParams)
      .output(projectSchema)
      .query(({ ctx, input }) => getProject(db, ctx.principal.teamId, input.id)),
    create: procedure('tracker-projects.write')
      .input(createProjectBody)
      .output(projectSchema)
      .mutation(({ ctx, input }) => createProject(db, ctx.principal.teamId, input)),
    update: procedure('tracker-projects.write')
      .input(idParams.extend({ data: updateProjectBody }))
      .output(projectSchema)
      .mutation(({ ctx, input }) => updateProject(db, ctx.principal.teamId, input.id, input.data)),
    delete: procedure('tracker-projects.write')
      .input(idParams)
      .output(z.void())
      .mutation(async ({ ctx, input }) => {
        await deleteProject(db, ctx.principal.teamId, input.id);
      }),
  });

export const trackerEntriesRouter = ({ db }: Pick<ApiDeps, 'db'>) =>
  router({
    get: procedure('tracker-entries.read')
      .input(listEntriesQuery)
      .output(z.object({ data: z.array(entrySchema), meta: entryRangeMetaSchema }))
      .query(({ ctx, input }) => listEntries(db, ctx.principal.teamId, input)),
    create: procedure('tracker-entries.write')
      .input(createEntryBody)
      .output(entrySchema)
      .mutation(({ ctx, input }) => createEntry(db, ctx.principal.teamId, ctx.principal.userId, input)),
    update: procedure('tracker-entries.write')
      .input(idParams.extend({ data: updateEntryBody }))
      .output(entrySchema)
      .mutation(({ ctx, input }) => updateEntry(db, ctx.principal.teamId, input.id, input.data)),
    delete: procedure('tracker-entries.write')
      .input(idParams)
      .output(z.void())
      .mutation(async ({ ctx, input }) => {
        await deleteEntry(db, ctx.principal.teamId, input.id);
      }),
  });
