import { createEntryBody, createProjectBody, idParams, listEntriesQuery, listProjectsQuery, updateEntryBody, updateProjectBody } from '../../../shared/domain/tracker/schema';
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
    get: procedure('trackerProjects.get')
      .input(listProjectsQuery.optional())
      .query(({ ctx, input }) => listProjects(db, ctx.principal.teamId, listProjectsQuery.parse(input ?? {}))),
    getById: procedure('trackerProjects.getById').input(idParams).query(({ ctx, input }) => getProject(db, ctx.principal.teamId, input.id)),
    create: procedure('trackerProjects.create').input(createProjectBody).mutation(({ ctx, input }) => createProject(db, ctx.principal.teamId, input)),
    update: procedure('trackerProjects.update')
      .input(idParams.extend({ data: updateProjectBody }))
      .mutation(({ ctx, input }) => updateProject(db, ctx.principal.teamId, input.id, input.data)),
    delete: procedure('trackerProjects.delete')
      .input(idParams)
      .mutation(async ({ ctx, input }) => {
        await deleteProject(db, ctx.principal.teamId, input.id);
        return { id: input.id, deleted: true };
      }),
  });

export const trackerEntriesRouter = ({ db }: Pick<ApiDeps, 'db'>) =>
  router({
    get: procedure('trackerEntries.get').input(listEntriesQuery).query(({ ctx, input }) => listEntries(db, ctx.principal.teamId, input)),
    create: procedure('trackerEntries.create')
      .input(createEntryBody)
      .mutation(({ ctx, input }) => createEntry(db, ctx.principal.teamId, ctx.principal.userId, input)),
    update: procedure('trackerEntries.update')
      .input(idParams.extend({ data: updateEntryBody }))
      .mutation(({ ctx, input }) => updateEntry(db, ctx.principal.teamId, input.id, input.data)),
    delete: procedure('trackerEntries.delete')
      .input(idParams)
      .mutation(async ({ ctx, input }) => {
        await deleteEntry(db, ctx.principal.teamId, input.id);
        return { id: input.id, deleted: true };
      }),
  });
