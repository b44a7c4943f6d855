import { z } from 'zod';
import {
  categoryEnvelope,
  categoryIdParams,
  categoryListSchema,
  createCategoryBody,
  updateCategoryBody,
} from '../../shared/domain/categories/schema';
import { createCategory, deleteCategory, listCategories, updateCategory } from '../../shared/domain/categories/service';
import { createTagBody, tagEnvelope, tagIdParams, tagListSchema, updateTagBody } from '../../shared/domain/tags/schema';
import { createTag, deleteTag, listTags, updateTag } from '../../shared/domain/tags/service';
import type { ApiDeps } from '../deps';
import { defineRoute } from './define';

/** Tags and transaction categories: the small vocabularies a team organises its data with. */
export const catalogRoutes = ({ db }: Pick<ApiDeps, 'db'>) => [
  defineRoute({
    method: 'get', path: '/tags', tag: 'Tags', summary: 'List tags', description: 'Every tag of the team, by name (not paginated).',
    response: tagListSchema,
    handler: async ({ principal }) => ({ data: await listTags(db, principal.teamId) }),
  }),
  defineRoute({
    method: 'post', path: '/tags', tag: 'Tags', summary: 'Create a tag', description: 'Names are unique per team (409 otherwise).',
    body: createTagBody, response: tagEnvelope, status: 201,
    handler: async ({ principal, body }) => ({ data: await createTag(db, principal.teamId, body) }),
  }),
  defineRoute({
    method: 'patch', path: '/tags/:id', tag: 'Tags', summary: 'Update a tag',
    params: tagIdParams, body: updateTagBody, response: tagEnvelope,
    handler: async ({ principal, params, body }) => ({ data: await updateTag(db, principal.teamId, params.id, body) }),
  }),
  defineRoute({
    method: 'delete', path: '/tags/:id', tag: 'Tags', summary: 'Delete a tag', description: 'Removes it from everything it labels.',
    params: tagIdParams, response: z.null(), status: 204,
    handler: ({ principal, params }) => deleteTag(db, principal.teamId, params.id),
  }),
  defineRoute({
    method: 'get', path: '/categories', tag: 'Categories', summary: 'List transaction categories', description: 'Every category of the team, by name (not paginated).',
    response: categoryListSchema,
    handler: async ({ principal }) => ({ data: await listCategories(db, principal.teamId) }),
  }),
  defineRoute({
    method: 'post', path: '/categories', tag: 'Categories', summary: 'Create a transaction category', description: 'Slugs are unique per team (409 otherwise) and never change.',
    body: createCategoryBody, response: categoryEnvelope, status: 201,
    handler: async ({ principal, body }) => ({ data: await createCategory(db, principal.teamId, body) }),
  }),
  defineRoute({
    method: 'patch', path: '/categories/:id', tag: 'Categories', summary: 'Update a transaction category',
    params: categoryIdParams, body: updateCategoryBody, response: categoryEnvelope,
    handler: async ({ principal, params, body }) => ({ data: await updateCategory(db, principal.teamId, params.id, body) }),
  }),
  defineRoute({
    method: 'delete', path: '/categories/:id', tag: 'Categories', summary: 'Delete a transaction category',
    description: 'Its transactions become uncategorised; its sub-categories move up to its parent.',
    params: categoryIdParams, response: z.null(), status: 204,
    handler: ({ principal, params }) => deleteCategory(db, principal.teamId, params.id),
  }),
];
