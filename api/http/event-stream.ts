import { Readable } from 'node:stream';
import type { Context } from 'koa';
import { encode } from 'eventsource-encoder';
import { AppError } from '../../shared/errors';
import type { AppState } from './state';

/**
 * Streams server-sent events. The status and headers are sent with the first event, so a failure
 * after it cannot become an error status: it ends the stream as an `error` event with the envelope.
 * An event with an `id` sends it, for the client's `Last-Event-ID` when it reconnects.
 */
export function sendEvents(ctx: Context, source: AsyncIterable<{ event: string; data: unknown; id?: string }>) {
  ctx.set({ 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-cache, no-transform', 'X-Accel-Buffering': 'no' });
  const state = ctx.state as AppState;
  async function* frames() {
    try {
      for await (const e of source) yield encode({ id: e.id, event: e.event, data: JSON.stringify(e.data) });
    } catch (err) {
      const envelope =
        err instanceof AppError
          ? err.toBody()
          : { error: 'Internal Server Error', description: `Something went wrong on our side; quote request id ${state.requestId}` };
      if (!(err instanceof AppError)) state.log.error({ err }, 'event stream failed');
      yield encode({ event: 'error', data: JSON.stringify(envelope) });
    }
  }
  ctx.body = Readable.from(frames());
}
