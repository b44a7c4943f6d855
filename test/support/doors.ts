import type { AnyTRPCProcedure } from '@trpc/server';
import type { z } from 'zod';
import type { ApiDeps } from '../../api/deps';
import { operations } from '../../api/operations';
import { mountedOf } from '../../api/rest/door';
import { trpcDoor } from '../../api/trpc/door';

/** Every REST door as the gateway mounts it, with its input part by part: for tests that probe each one. */
export const restDoors = () => operations.filter((op) => op.rest).map(mountedOf);

/** The tRPC router as the gateway serves it, for tests that walk its procedures (building it calls nothing). */
export const trpcProcedures = () =>
  Object.entries(trpcDoor(operations, {} as ApiDeps)._def.procedures as unknown as Record<string, AnyTRPCProcedure>).map(
    ([name, p]) => [name, p as unknown as { _def: { type: string; inputs: z.ZodType[] } }] as const,
  );
