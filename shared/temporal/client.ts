import { InterceptingCall, type Interceptor } from '@grpc/grpc-js';
import { Client, Connection, defaultGrpcRetryOptions, makeGrpcRetryInterceptor, type ClientInterceptors } from '@temporalio/client';
import type { TemporalConnectionOptions } from './connection-options';

/** How long close() waits for calls in flight; the channel itself is shut only once they end. */
const CLOSE_PATIENCE_MS = 5_000;

/**
 * Counts the calls in flight, retries included (it sits outside the retry interceptor). A retry
 * that wakes after the channel was shut throws from its timer, where nothing can catch it and the
 * process dies; so the channel is shut only once the calls have ended.
 */
function callTracker() {
  let inFlight = 0;
  const idle: (() => void)[] = [];
  const settle = () => {
    inFlight -= 1;
    if (inFlight === 0) idle.splice(0).forEach((resolve) => resolve());
  };
  const interceptor: Interceptor = (options, nextCall) =>
    new InterceptingCall(nextCall(options), {
      start(metadata, _listener, next) {
        inFlight += 1;
        let settled = false;
        next(metadata, {
          onReceiveStatus(status, nextStatus) {
            if (!settled) {
              settled = true;
              settle();
            }
            nextStatus(status);
          },
        });
      },
    });
  /** Resolves when no call is in flight, or after `timeoutMs`; true when idle. */
  const drained = (timeoutMs: number) =>
    inFlight === 0
      ? Promise.resolve(true)
      : Promise.race([
          new Promise<boolean>((resolve) => idle.push(() => resolve(true))),
          new Promise<boolean>((resolve) => setTimeout(() => resolve(false), timeoutMs).unref()),
        ]);
  /** Runs `fn` once no call is in flight. */
  const whenIdle = (fn: () => void) => (inFlight === 0 ? fn() : idle.push(fn));
  return { interceptor, drained, whenIdle };
}

/** Where the gateway starts workflows: safe to read and log. */
export interface TemporalTarget {
  address: string;
  namespace: string;
  taskQueue: string;
  /** The client's interceptors: with tracing on, a workflow start or signal carries the caller's trace. */
  interceptors?: ClientInterceptors;
}

/** The target plus how to reach it (TLS, an API key): see temporalGatewayOptions(). */
export type TemporalOptions = TemporalTarget & Omit<TemporalConnectionOptions, 'address'>;

/**
 * The gateway's handle on Temporal. It connects lazily, so the API starts (and answers /health
 * with 503) while Temporal is still coming up, and reconnects on its own once it is there.
 */
export interface TemporalGateway {
  /** The target only: the TLS key and API key stay inside. */
  readonly options: TemporalTarget;
  client(): Promise<Client>;
  ping(timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export function createTemporalGateway(options: TemporalOptions): TemporalGateway {
  let connecting: Promise<{ connection: Connection; client: Client }> | undefined;
  const calls = callTracker();

  const connect = () => {
    connecting ??= Connection.connect({
      address: options.address,
      tls: options.tls,
      apiKey: options.apiKey,
      connectTimeout: '3s',
      // gRPC's own reconnect backoff grows to two minutes: after Temporal comes back from an outage the
      // gateway would keep failing for that long. Trying again every few seconds is cheap.
      channelArgs: { 'grpc.initial_reconnect_backoff_ms': 500, 'grpc.max_reconnect_backoff_ms': 3000 },
      // The SDK retries an unavailable server ten times, over about twenty seconds, inside the call: a
      // webhook would wait that long. The gateway fails fast instead; what it could not start is
      // recorded and started later (the webhook relay), and REST callers get a prompt error.
      interceptors: [calls.interceptor, makeGrpcRetryInterceptor(defaultGrpcRetryOptions({ maxAttempts: 3, maxIntervalMs: () => 500 }))],
    })
      .then((connection) => ({
        connection,
        client: new Client({ connection, namespace: options.namespace, interceptors: options.interceptors }),
      }))
      .catch((err: unknown) => {
        connecting = undefined; // try again on the next call
        throw err;
      });
    return connecting;
  };

  // Health pings still retrying when the gateway closes: their next attempt would find the channel
  // shut and throw from a timer, where nothing can catch it. close() lets them end first.
  const pings = new Set<Promise<unknown>>();

  return {
    options: { address: options.address, namespace: options.namespace, taskQueue: options.taskQueue },
    async client() {
      return (await connect()).client;
    },
    async ping(timeoutMs = 2000) {
      const deadline = Date.now() + timeoutMs;
      const timer = new Promise<never>((_, reject) =>
        setTimeout(() => reject(new Error(`no answer from Temporal at ${options.address} within ${timeoutMs} ms`)), timeoutMs).unref(),
      );
      const { connection } = await Promise.race([connect(), timer]);
      const call = connection.withDeadline(deadline, () => connection.workflowService.getSystemInfo({}));
      const settled = call.catch(() => undefined);
      pings.add(settled);
      void settled.finally(() => pings.delete(settled));
      await Promise.race([call, timer]);
    },
    async close() {
      await Promise.all(pings);
      const c = connecting;
      connecting = undefined;
      if (!c) return;
      const shut = () => c.then(({ connection }) => connection.close()).catch(() => undefined);
      if (await calls.drained(CLOSE_PATIENCE_MS)) {
        await shut();
        return;
      }
      // A call still running (a slow query, a retry waiting): the channel is shut when it ends, not under it.
      calls.whenIdle(() => void shut());
    },
  };
}
