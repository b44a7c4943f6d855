import { z } from 'zod';
import { AUDIT_ACTIONS, AUDIT_ACTOR_KINDS, AUDIT_CREDENTIAL_KINDS } from '../../db/models';
import { isoTimestamp, pageSize } from '../common/query';

export const auditEventSchema = z
  .object({
    id: z.uuid(),
    occurredAt: z.iso.datetime(),
    operation: z.string().meta({
      description:
        'What was done: the operation’s name (`transactions.create`), `webhook:<provider>`, `workflow:<workflow type>/<activity>`, `mcp:<tool>`, `admin:<command>`; `unattributed` for a change made outside all of them.',
    }),
    actor: z.object({
      kind: z.enum(AUDIT_ACTOR_KINDS),
      id: z.string().nullable().meta({ description: 'The user’s id, the workflow’s id, the provider’s name or the operator’s name.' }),
    }),
    credential: z.object({
      kind: z.enum(AUDIT_CREDENTIAL_KINDS),
      id: z.string().nullable().meta({ description: 'The API key’s or OAuth client’s id, the workflow run, or the provider’s event key.' }),
    }),
    target: z.object({
      type: z.string().meta({ description: 'The table changed (`transactions`, `invoices`, …).' }),
      id: z.string().nullable(),
    }),
    action: z.enum(AUDIT_ACTIONS),
    before: z
      .record(z.string(), z.unknown())
      .nullable()
      .meta({ description: 'The fields before: the whole row for a delete, the changed fields for an update. Secrets never appear.' }),
    after: z
      .record(z.string(), z.unknown())
      .nullable()
      .meta({ description: 'The fields after: the whole row for an insert, the changed fields for an update.' }),
    requestId: z.string().nullable(),
    ip: z.string().nullable(),
    chain: z.object({ position: z.number().int(), prevHash: z.string(), hash: z.string() }).nullable().meta({
      description: 'The entry’s place in the team’s hash chain (hex SHA-256); null until it is sealed, moments after its transaction ends.',
    }),
  })
  .meta({ id: 'AuditEvent', description: 'One change to the team’s data: who made it, through what, and the fields before and after.' });
export type AuditEventDto = z.infer<typeof auditEventSchema>;

export const listAuditEventsQuery = z
  .object({
    actorId: z
      .string()
      .min(1)
      .max(200)
      .optional()
      .meta({ description: 'Only changes by this actor (a user’s id, a workflow’s id, a provider).' }),
    credentialKind: z.enum(AUDIT_CREDENTIAL_KINDS).optional(),
    targetType: z.string().min(1).max(100).optional(),
    targetId: z.string().min(1).max(200).optional(),
    operation: z.string().min(1).max(200).optional(),
    from: isoTimestamp.optional().meta({ description: 'Only changes at or after this time.' }),
    to: isoTimestamp.optional().meta({ description: 'Only changes before this time.' }),
    cursor: z.string().optional(),
    pageSize,
  })
  .strict();
export type ListAuditEventsQuery = z.infer<typeof listAuditEventsQuery>;

export const auditVerificationSchema = z
  .object({
    ok: z.boolean(),
    entries: z.number().int().meta({ description: 'Sealed entries walked.' }),
    unsealed: z.number().int().meta({ description: 'Entries of transactions still open or just ended, not yet in the chain.' }),
    checkpoints: z.number().int().meta({ description: 'Signed daily checkpoints checked.' }),
    brokenAt: z
      .object({
        position: z.number().int(),
        id: z.uuid().nullable(),
        reason: z.enum(['hash', 'link', 'missing', 'checkpoint']).meta({
          description:
            '`hash`: the entry’s content no longer matches its hash; `link`: it does not point at the entry before it; `missing`: entries before it are gone; `checkpoint`: a signed checkpoint disagrees with the chain.',
        }),
      })
      .nullable()
      .meta({ description: 'The first broken link; null when the chain holds.' }),
  })
  .meta({ id: 'AuditVerification' });
export type AuditVerification = z.infer<typeof auditVerificationSchema>;
