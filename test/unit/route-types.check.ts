/**
 * Compile-time checks of api/rest/define.ts, run by `tsc --noEmit` (npm test), not by jest: each
 * `@ts-expect-error` fails the type check if the line below it ever compiles.
 */
import { z } from 'zod';
import { defineRoute } from '../../api/rest/define';
import { one } from '../../api/rest/replies';

const widget = z.object({ id: z.string(), name: z.string() });
const route = {
  method: 'get',
  path: '/widgets/:id',
  scopes: ['transactions.read'],
  summary: 'A widget',
  tag: 'Test',
  reply: one(widget),
} as const;

// The result matches the schema: compiles.
defineRoute({ ...route, handler: () => Promise.resolve({ id: 'w1', name: 'Widget' }) });

defineRoute({
  ...route,
  // @ts-expect-error: a renamed field (`title` for `name`) is a handler that does not match its reply.
  handler: () => Promise.resolve({ id: 'w1', title: 'Widget' }),
});

defineRoute({
  ...route,
  // @ts-expect-error: so is a field of the wrong type.
  handler: () => Promise.resolve({ id: 1, name: 'Widget' }),
});
