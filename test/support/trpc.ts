import { createTRPCClient, httpBatchLink, TRPCClientError } from '@trpc/client';
import type { AppRouter } from '../../api/trpc/door';
import type { TestApi } from './api';

/** The typed tRPC client a real TypeScript client would use, batching on, as the given bearer (and with any other headers). */
export function trpcAs(api: Pick<TestApi, 'url'>, token: string, headers: Record<string, string> = {}) {
  return createTRPCClient<AppRouter>({
    links: [httpBatchLink({ url: `${api.url}/trpc`, headers: () => ({ ...headers, authorization: `Bearer ${token}` }) })],
  });
}

/** Our envelope fields as a tRPC error carries them (`httpStatus`, `error`, `description`, `details`). */
export interface TrpcErrorData {
  httpStatus: number;
  error: string;
  description: string;
  details?: { field: string; message: string }[];
}

/** Awaits a call that must fail and returns its error data, for assertions. */
export async function trpcError(call: Promise<unknown>): Promise<TrpcErrorData> {
  try {
    await call;
  } catch (err) {
    if (err instanceof TRPCClientError) return (err as TRPCClientError<AppRouter>).data as unknown as TrpcErrorData;
    throw err;
  }
  throw new Error('expected the tRPC call to fail');
}
