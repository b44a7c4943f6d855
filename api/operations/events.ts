import { z } from 'zod';
import { followEvents, listEvents } from '../../shared/domain/events/service';
import * as schema from '../../shared/domain/events/schema';
import { WEBHOOK_EVENT_DESCRIPTIONS } from '../../shared/domain/webhook-endpoints/event-types';
import { events as serverSentEvents, list, query } from './declare';

const TYPES = Object.entries(WEBHOOK_EVENT_DESCRIPTIONS)
  .map(([type, what]) => `- \`${type}\`: ${what}`)
  .join('\n');

const GUARANTEES = [
  'Every event the team’s webhook endpoints could receive is in the feed, whether or not any endpoint subscribes: the same `{type, timestamp, data}` a webhook body carries, with the event’s `id` (its deliveries carry it as `eventId`). An event is written in the transaction of its change, so it exists exactly when the change does.',
  'The feed is in commit order as a reader can rely on it: an event is served only once every transaction that could sort before it has finished, so nothing ever appears before a position already read. A client that reads to the end, keeps `meta.cursor`, and comes back with `after=<cursor>` sees every event exactly once, in the same order every time. Events of one transaction come together, in the order they were written. The cost is latency: a long-running transaction anywhere holds back what committed after it began.',
  'Events are kept for `EVENTS_RETENTION` (30 days unless configured); a team’s newest event is always kept, so the cursor of a client that is up to date stays valid. A cursor whose event is gone answers 409: events after it may have been dropped, so resynchronise and read again without `after`. A cursor that is not one this API issued is a 400.',
].join('\n\n');

export const events = [
  query('events.get', 'GET /events', ['events.read'], {
    summary: 'Read the event feed',
    description: `The team’s events, oldest first from \`after\`, keyset-paginated. With \`wait\`, a long poll: when nothing is ready it answers as soon as an event is (or empty at the deadline), still with the cursor to go on from.\n\n${GUARANTEES}\n\nEvents:\n${TYPES}`,
    input: schema.listEventsQuery,
    output: list(schema.eventSchema, schema.eventFeedMetaSchema),
    errors: [409],
    run: ({ principal, input }, { db, eventWake }) => listEvents(db, principal.teamId, input, () => eventWake.nextCommit(principal.teamId)),
  }),
  query('events.stream', 'GET /events/stream', ['events.read'], {
    restOnly: 'a stream of server-sent events; tRPC clients poll events.get (with `wait`)',
    summary: 'Follow the event feed',
    description: `Server-sent events (\`text/event-stream\`): every event after \`after\` (or after the \`Last-Event-ID\` header, which an EventSource sends when it reconnects; the header wins), then each new one as it commits, until the client closes. Each event’s \`event\` is its type and \`data\` the JSON of \`GET /events\`’s item; its \`id\` is the cursor after it, usable as \`after\` in \`GET /events\` too. After \`EVENTS_STREAM_HEARTBEAT\` (15 s) without an event comes a \`heartbeat\` with the current cursor.\n\n${GUARANTEES}`,
    input: schema.streamEventsQuery,
    errors: [409],
    headers: z.object({
      'Last-Event-ID': z
        .string()
        .optional()
        .meta({ description: 'The id of the last event received: the stream resumes after it (wins over `after`).' }),
    }),
    output: serverSentEvents(schema.eventStreamFrameSchema, 'A stream of server-sent events; each `data` is JSON and each `id` a cursor.'),
    run: ({ principal, input, request }, { db, eventWake, config }) =>
      followEvents(db, principal.teamId, request.lastEventId ?? input.after, () => eventWake.nextCommit(principal.teamId), {
        heartbeatMs: config.EVENTS_STREAM_HEARTBEAT,
      }),
  }),
];
