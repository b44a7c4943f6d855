import {
  createEntryBody,
  entryRangeMetaSchema,
  entrySchema,
  idParams,
  listEntriesQuery,
  updateEntryBody,
} from '../../shared/domain/tracker/schema';
import { createEntry, deleteEntry, listEntries, updateEntry } from '../../shared/domain/tracker/service';
import { mutation, query } from './declare';
import { list, none, one } from './output';

export const trackerEntries = [
  query('trackerEntries.get', {
    rest: 'GET /tracker-entries',
    scopes: ['tracker-entries.read'],
    summary: 'List time entries in a date range',
    description: 'Newest first; `meta.totalDuration` sums the finished ones.',
    input: listEntriesQuery,
    output: list(entrySchema, entryRangeMetaSchema),
    run: ({ principal, input }, { db }) => listEntries(db, principal.teamId, input),
  }),
  mutation('trackerEntries.create', {
    rest: 'POST /tracker-entries',
    status: 201,
    scopes: ['tracker-entries.write'],
    summary: 'Record time or start a timer',
    description: 'With `stop`: a finished entry. Without: a running timer; your running timer, if any, is stopped first.',
    input: createEntryBody,
    output: one(entrySchema),
    run: ({ principal, input }, { db }) => createEntry(db, principal.teamId, principal.userId, input),
  }),
  mutation('trackerEntries.update', {
    rest: 'PATCH /tracker-entries/:id',
    body: 'data',
    scopes: ['tracker-entries.write'],
    summary: 'Update a time entry (set `stop` to stop a timer)',
    input: idParams.extend({ data: updateEntryBody }),
    output: one(entrySchema),
    run: ({ principal, input }, { db }) => updateEntry(db, principal.teamId, input.id, input.data),
  }),
  mutation('trackerEntries.delete', {
    rest: 'DELETE /tracker-entries/:id',
    scopes: ['tracker-entries.write'],
    summary: 'Delete a time entry',
    input: idParams,
    output: none,
    run: ({ principal, input }, { db }) => deleteEntry(db, principal.teamId, input.id),
  }),
];
