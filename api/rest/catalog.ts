import { categoryIdParams, categorySchema, createCategoryBody, updateCategoryBody } from '../../shared/domain/categories/schema';
import { createCategory, deleteCategory, listCategories, updateCategory } from '../../shared/domain/categories/service';
import { createTagBody, tagIdParams, tagSchema, updateTagBody } from '../../shared/domain/tags/schema';
import { createTag, deleteTag, listTags, updateTag } from '../../shared/domain/tags/service';
import type { ApiDeps } from '../deps';
import { defineRoute } from './define';
import { all, none, one } from './replies';

/** Tags and transaction categories: the small vocabularies a team organises its data with. */
export const catalogRoutes = ({ db }: Pick<ApiDeps, 'db'>) => [
  defineRoute({
    method: 'get',
    path: '/tags',
    scopes: ['tags.read'],
    tag: 'Tags',
    summary: 'List tags',
    description: 'Every tag of the team, by name (not paginated).',
    reply: all(tagSchema),
    handler: ({ principal }) => listTags(db, principal.teamId),
  }),
  defineRoute({
    method: 'post',
    path: '/tags',
    scopes: ['tags.write'],
    tag: 'Tags',
    summary: 'Create a tag',
    description: 'Names are unique per team (409 otherwise).',
    body: createTagBody,
    reply: one(tagSchema),
    status: 201,
    handler: ({ principal, body }) => createTag(db, principal.teamId, body),
  }),
  defineRoute({
    method: 'patch',
    path: '/tags/:id',
    scopes: ['tags.write'],
    tag: 'Tags',
    summary: 'Update a tag',
    params: tagIdParams,
    body: updateTagBody,
    reply: one(tagSchema),
    handler: ({ principal, params, body }) => updateTag(db, principal.teamId, params.id, body),
  }),
  defineRoute({
    method: 'delete',
    path: '/tags/:id',
    scopes: ['tags.write'],
    tag: 'Tags',
    summary: 'Delete a tag',
    description: 'Removes it from everything it labels.',
    params: tagIdParams,
    reply: none,
    handler: ({ principal, params }) => deleteTag(db, principal.teamId, params.id),
  }),
  defineRoute({
    method: 'get',
    path: '/categories',
    scopes: ['transactions.read'],
    tag: 'Categories',
    summary: 'List transaction categories',
    description: 'Every category of the team, by name (not paginated).',
    reply: all(categorySchema),
    handler: ({ principal }) => listCategories(db, principal.teamId),
  }),
  defineRoute({
    method: 'post',
    path: '/categories',
    scopes: ['transactions.write'],
    tag: 'Categories',
    summary: 'Create a transaction category',
    description: 'Slugs are unique per team (409 otherwise) and never change.',
    body: createCategoryBody,
    reply: one(categorySchema),
    status: 201,
    handler: ({ principal, body }) => createCategory(db, principal.teamId, body),
  }),
  defineRoute({
    method: 'patch',
    path: '/categories/:id',
    scopes: ['transactions.write'],
    tag: 'Categories',
    summary: 'Update a transaction category',
    params: categoryIdParams,
    body: updateCategoryBody,
    reply: one(categorySchema),
    handler: ({ principal, params, body }) => updateCategory(db, principal.teamId, params.id, body),
  }),
  defineRoute({
    method: 'delete',
    path: '/categories/:id',
    scopes: ['transactions.write'],
    tag: 'Categories',
    summary: 'Delete a transaction category',
    description: 'Its transactions become uncategorised; its sub-categories move up to its parent.',
    params: categoryIdParams,
    reply: none,
    handler: ({ principal, params }) => deleteCategory(db, principal.teamId, params.id),
  }),
];
