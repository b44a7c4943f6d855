import {
  createProjectBody,
  idParams,
  listProjectsQuery,
  projectSchema,
  updateProjectBody,
} from '../../shared/domain/tracker-projects/schema';
import { createProject, deleteProject, getProject, listProjects, updateProject } from '../../shared/domain/tracker-projects/service';
import { mutation, none, one, page, query } from './declare';

export const trackerProjects = [
  query('trackerProjects.get', 'GET /tracker-projects', ['tracker-projects.read'], {
    summary: 'List projects',
    description: 'Newest first, keyset-paginated, with tracked totals.',
    input: listProjectsQuery,
    output: page(projectSchema),
    run: ({ principal, input }, { db }) => listProjects(db, principal.teamId, input),
  }),
  query('trackerProjects.getById', 'GET /tracker-projects/:id', ['tracker-projects.read'], {
    summary: 'Get a project',
    input: idParams,
    output: one(projectSchema),
    run: ({ principal, input }, { db }) => getProject(db, principal.teamId, input.id),
  }),
  mutation('trackerProjects.create', 'POST /tracker-projects', ['tracker-projects.write'], {
    status: 201,
    summary: 'Create a project',
    input: createProjectBody,
    output: one(projectSchema),
    run: ({ principal, input }, { db }) => createProject(db, principal.teamId, input),
  }),
  mutation('trackerProjects.update', 'PATCH /tracker-projects/:id', ['tracker-projects.write'], {
    body: 'data',
    summary: 'Update a project',
    input: idParams.extend({ data: updateProjectBody }),
    output: one(projectSchema),
    run: ({ principal, input }, { db }) => updateProject(db, principal.teamId, input.id, input.data),
  }),
  mutation('trackerProjects.delete', 'DELETE /tracker-projects/:id', ['tracker-projects.write'], {
    summary: 'Delete a project and its entries',
    input: idParams,
    output: none,
    run: ({ principal, input }, { db }) => deleteProject(db, principal.teamId, input.id),
  }),
];
