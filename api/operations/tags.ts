import { createTagBody, tagIdParams, tagSchema, updateTagBody } from '../../shared/domain/tags/schema';
import { createTag, deleteTag, listTags, updateTag } from '../../shared/domain/tags/service';
import { all, mutation, none, one, query } from './declare';

export const tags = [
  query('tags.get', 'GET /tags', ['tags.read'], {
    summary: 'List tags',
    description: 'Every tag of the team, by name (not paginated).',
    output: all(tagSchema),
    run: ({ principal }, { db }) => listTags(db, principal.teamId),
  }),
  mutation('tags.create', 'POST /tags', ['tags.write'], {
    status: 201,
    summary: 'Create a tag',
    description: 'Names are unique per team (409 otherwise).',
    input: createTagBody,
    output: one(tagSchema),
    run: ({ principal, input }, { db }) => createTag(db, principal.teamId, input),
  }),
  mutation('tags.update', 'PATCH /tags/:id', ['tags.write'], {
    body: 'data',
    summary: 'Update a tag',
    input: tagIdParams.extend({ data: updateTagBody }),
    output: one(tagSchema),
    run: ({ principal, input }, { db }) => updateTag(db, principal.teamId, input.id, input.data),
  }),
  mutation('tags.delete', 'DELETE /tags/:id', ['tags.write'], {
    summary: 'Delete a tag',
    description: 'Removes it from everything it labels.',
    input: tagIdParams,
    output: none,
    run: ({ principal, input }, { db }) => deleteTag(db, principal.teamId, input.id),
  }),
];
