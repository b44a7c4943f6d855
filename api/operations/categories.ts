import { categoryIdParams, categorySchema, createCategoryBody, updateCategoryBody } from '../../shared/domain/categories/schema';
import { createCategory, deleteCategory, listCategories, updateCategory } from '../../shared/domain/categories/service';
import { all, mutation, none, one, query } from './declare';

export const categories = [
  query('categories.get', 'GET /categories', ['transactions.read'], {
    summary: 'List transaction categories',
    description: 'Every category of the team, by name (not paginated).',
    output: all(categorySchema),
    run: ({ principal }, { db }) => listCategories(db, principal.teamId),
  }),
  mutation('categories.create', 'POST /categories', ['transactions.write'], {
    status: 201,
    summary: 'Create a transaction category',
    description: 'Slugs are unique per team (409 otherwise) and never change.',
    input: createCategoryBody,
    output: one(categorySchema),
    run: ({ principal, input }, { db }) => createCategory(db, principal.teamId, input),
  }),
  mutation('categories.update', 'PATCH /categories/:id', ['transactions.write'], {
    body: 'data',
    summary: 'Update a transaction category',
    input: categoryIdParams.extend({ data: updateCategoryBody }),
    output: one(categorySchema),
    run: ({ principal, input }, { db }) => updateCategory(db, principal.teamId, input.id, input.data),
  }),
  mutation('categories.delete', 'DELETE /categories/:id', ['transactions.write'], {
    summary: 'Delete a transaction category',
    description: 'Its transactions become uncategorised; its sub-categories move up to its parent.',
    input: categoryIdParams,
    output: none,
    run: ({ principal, input }, { db }) => deleteCategory(db, principal.teamId, input.id),
  }),
];
