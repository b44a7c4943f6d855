import { z } from 'zod';
import { pageSize } from '../common/query';
import { webhookEventType } from '../webhook-endpoints/schema';

export const eventSchema = z
  .object({
    id: z.uuid().meta({ description: 'The event’s id: every webhook delivery of this event carries it as `eventId`.' }),
    type: webhookEventType,
    timestamp: z.iso.datetime().meta({ description: 'When the change was made.' }),
    data: z.record(z.string(), z.unknown()).meta({ description: 'The same `data` as the webhook of this event type.' }),
  })
  .meta({
    id: 'Event',
    description: 'One change, exactly as a webhook endpoint receives it (`{type, timestamp, data}`), with its event id.',
  });
export type EventDto = z.infer<typeof eventSchema>;

export const eventFeedMetaSchema = z
  .object({
    cursor: z.string().meta({
      description:
        'Where this page ends: pass it as `after` for the next page, and keep it; it is never null, so a client that has read to the end resumes from here.',
    }),
    hasNextPage: z.boolean().meta({ description: 'More events were ready when this page was read; false: you are at the end for now.' }),
  })
  .meta({ id: 'EventFeedMeta' });

const after = z
  .string()
  .optional()
  .meta({ description: 'A cursor from `meta.cursor` (or an SSE event id); omitted: from the oldest event retained.' });

/** The longest a long poll may wait for an event. */
export const MAX_WAIT_S = 30;

export const listEventsQuery = z.object({
  after,
  pageSize,
  wait: z.coerce
    .number()
    .int()
    .min(0)
    .max(MAX_WAIT_S)
    .default(0)
    .meta({ description: `Long poll: when no event is ready, wait up to this many seconds (at most ${MAX_WAIT_S}) for one.` }),
});
export type ListEventsQuery = z.infer<typeof listEventsQuery>;

export const streamEventsQuery = z.object({ after });

export const eventStreamFrameSchema = z
  .object({
    id: z.string().meta({ description: 'The cursor after this frame: what `Last-Event-ID` resumes from.' }),
    event: z.union([webhookEventType, z.literal('heartbeat')]),
    data: z.union([eventSchema, z.object({ cursor: z.string() })]),
  })
  .meta({ id: 'EventStreamFrame' });
