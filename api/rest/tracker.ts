import { z } from 'zod';
import {
  createEntryBody,
  createProjectBody,
  entryEnvelope,
  entryListSchema,
  idParams,
  listEntriesQuery,
  listProjectsQuery,
  projectEnvelope,
  projectListSchema,
  updateEntryBody,
  updateProjectBody,
} from '../../shared/domain/tracker/schema';
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
} from '../../shared/domain/tracker/service';
import type { ApiDeps } from '../deps';
import { defineRoute } from './define';

export const trackerRoutes = ({ db }: Pick<ApiDeps, 'db'>) => [
  defineRoute({
    method: 'get', path: '/tracker-projects', tag: 'Time tracking', summary: 'List projects', description: 'Newest first, keyset-paginated, with tracked totals.',
    query: listProjectsQuery, response: projectListSchema,
    handler: ({ principal, query }) => listProjects(db, principal.teamId, query),
  }),
  defineRoute({
    method: 'get', path: '/tracker-projects/:id', tag: 'Time tracking', summary: 'Get a project',
    params: idParams, response: projectEnvelope,
    handler: async ({ principal, params }) => ({ data: await getProject(db, principal.teamId, params.id) }),
  }),
  defineRoute({
    method: 'post', path: '/tracker-projects', tag: 'Time tracking', summary: 'Create a project',
    body: createProjectBody, response: projectEnvelope, status: 201,
    handler: async ({ principal, body }) => ({ data: await createProject(db, principal.teamId, body) }),
  }),
  defineRoute({
    method: 'patch', path: '/tracker-projects/:id', tag: 'Time tracking', summary: 'Update a project',
    params: idParams, body: updateProjectBody, response: projectEnvelope,
    handler: async ({ principal, params, body }) => ({ data: await updateProject(db, principal.teamId, params.id, body) }),
  }),
  defineRoute({
    method: 'delete', path: '/tracker-projects/:id', tag: 'Time tracking', summary: 'Delete a project and its entries',
    params: idParams, response: z.null(), status: 204,
    handler: ({ principal, params }) => deleteProject(db, principal.teamId, params.id),
  }),
  defineRoute({
    method: 'get', path: '/tracker-entries', tag: 'Time tracking', summary: 'List time entries in a date range', description: 'Newest first; `meta.totalDuration` sums the finished ones.',
    query: listEntriesQuery, response: entryListSchema,
    handler: ({ principal, query }) => listEntries(db, principal.teamId, query),
  }),
  defineRoute({
    method: 'post', path: '/tracker-entries', tag: 'Time tracking', summary: 'Record time or start a timer',
    description: 'With `stop`: a finished entry. Without: a running timer; your running timer, if any, is stopped first.',
    body: createEntryBody, response: entryEnvelope, status: 201,
    handler: async ({ principal, body }) => ({ data: await createEntry(db, principal.teamId, principal.userId, body) }),
  }),
  defineRoute({
    method: 'patch', path: '/tracker-entries/:id', tag: 'Time tracking', summary: 'Update a time entry (set `stop` to stop a timer)',
    params: idParams, body: updateEntryBody, response: entryEnvelope,
    handler: async ({ principal, params, body }) => ({ data: await updateEntry(db, principal.teamId, params.id, body) }),
  }),
  defineRoute({
    method: 'delete', path: '/tracker-entries/:id', tag: 'Time tracking', summary: 'Delete a time entry',
    params: idParams, response: z.null(), status: 204,
    handler: ({ principal, params }) => deleteEntry(db, principal.teamId, params.id),
  }),
];
