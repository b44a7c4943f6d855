import type { AnyTRPCProcedure } from '@trpc/server';
import type { z } from 'zod';
import type { ApiDeps } from '../../api/deps';
import { ApiMetrics } from '../../api/metrics';
import { operations } from '../../api/operations';
import type { Db } from '../../shared/db/knex';
import { mountedOf } from '../../api/rest/door';
import { trpcDoor } from '../../api/trpc/door';

/** Every REST door as the gateway mounts it, with its input part by part: for tests that probe each one. */
export const restDoors = () => operations.filter((op) => op.rest).map(mountedOf);

/**
 * The tRPC router as the gateway serves it, for tests that walk its procedures (building it calls
 * nothing but each procedure's meter; the metrics read the database only when scraped).
 */
export const trpcProcedures = () =>
  Object.entries(
    trpcDoor(operations, { metrics: unscrapedMetrics() } as ApiDeps)._def.procedures as unknown as Record<string, AnyTRPCProcedure>,
  ).map(([name, p]) => [name, p as unknown as { _def: { type: string; inputs: z.ZodType[] } }] as const);

/** The gateway's metrics for doors built without a database: counted, never scraped (a scrape reads the database). */
export const unscrapedMetrics = () => new ApiMetrics(null as unknown as Db, { processMetrics: false });
