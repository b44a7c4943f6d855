import * as schema from '../../shared/domain/tracker-entries/schema';
import { createEntry, deleteEntry, listEntries, updateEntry } from '../../shared/domain/tracker-entries/service';
import { list, mutation, none, one, query } from './declare';

export const trackerEntries = [
  query('trackerEntries.get', 'GET /tracker-entries', ['tracker-entries.read'], {
    summary: 'List time entries in a date range',
    description: 'Newest first; `meta.totalDuration` sums the finished ones.',
    input: schema.listEntriesQuery,
    output: list(schema.entrySchema, schema.entryRangeMetaSchema),
    run: ({ principal, input }, { db }) => listEntries(db, principal.teamId, input),
  }),
  mutation('trackerEntries.create', 'POST /tracker-entries', ['tracker-entries.write'], {
    status: 201,
    summary: 'Record time or start a timer',
    description: 'With `stop`: a finished entry. Without: a running timer; your running timer, if any, is stopped first.',
    input: schema.createEntryBody,
    output: one(schema.entrySchema),
    run: ({ principal, input }, { db }) => createEntry(db, principal.teamId, principal.userId, input),
  }),
  mutation('trackerEntries.update', 'PATCH /tracker-entries/:id', ['tracker-entries.write'], {
    body: 'data',
    summary: 'Update a time entry (set `stop` to stop a timer)',
    input: schema.idParams.extend({ data: schema.updateEntryBody }),
    output: one(schema.entrySchema),
    run: ({ principal, input }, { db }) => updateEntry(db, principal.teamId, input.id, input.data),
  }),
  mutation('trackerEntries.delete', 'DELETE /tracker-entries/:id', ['tracker-entries.write'], {
    summary: 'Delete a time entry',
    input: schema.idParams,
    output: none,
    run: ({ principal, input }, { db }) => deleteEntry(db, principal.teamId, input.id),
  }),
];
