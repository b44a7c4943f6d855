/**
 * Compile-time checks of api/operations/declare.ts, run by `tsc --noEmit` (npm test), not by jest: each
 * `@ts-expect-error` fails the type check if the line below it ever compiles.
 */
import { z } from 'zod';
import { mutation, query } from '../../api/operations/declare';
import { none, one } from '../../api/operations/output';

const widget = z.object({ id: z.string(), name: z.string() });
const spec = { summary: 'A widget', input: z.object({ id: z.string() }), output: one(widget) };

// The result matches the schema: compiles.
query('widgets.getById', 'GET /widgets/:id', ['transactions.read'], { ...spec, run: () => Promise.resolve({ id: 'w1', name: 'Widget' }) });

query('widgets.getById', 'GET /widgets/:id', ['transactions.read'], {
  ...spec,
  // @ts-expect-error: a renamed field (`title` for `name`) is a service that does not match its output.
  run: () => Promise.resolve({ id: 'w1', title: 'Widget' }),
});

query('widgets.getById', 'GET /widgets/:id', ['transactions.read'], {
  ...spec,
  // @ts-expect-error: so is a field of the wrong type.
  run: () => Promise.resolve({ id: 1, name: 'Widget' }),
});

query('widgets.getById', 'GET /widgets/:id', ['transactions.read'], {
  ...spec,
  // @ts-expect-error: the input is typed from its schema: there is no `widgetId`.
  run: ({ input }) => Promise.resolve({ id: input.widgetId, name: 'Widget' }),
});

mutation('widgets.update', 'PATCH /widgets/:id', ['transactions.write'], {
  summary: 'Rename a widget',
  input: z.object({ id: z.string(), data: z.object({ name: z.string() }) }),
  // @ts-expect-error: the REST body is a field of the input, or nothing.
  body: 'payload',
  output: none,
  run: () => Promise.resolve(),
});

// @ts-expect-error: a name is `<resource>.<procedure>`.
query('widgets', 'GET /widgets', ['transactions.read'], { summary: 'Widgets', output: none, run: () => Promise.resolve() });

// @ts-expect-error: a scope is one of RESOURCE_SCOPES.
query('widgets.get', 'GET /widgets', ['widgets.read'], { summary: 'Widgets', output: none, run: () => Promise.resolve() });
