import { listAuditEvents, assertAuditReader, verifyAuditTrail } from '../../shared/domain/audit-events/service';
import * as schema from '../../shared/domain/audit-events/schema';
import { one, page, query } from './declare';

const OWNERS = 'Owners only: a key or token acting for a member who is not an owner of the team gets 403.';

export const auditEvents = [
  query('auditEvents.get', 'GET /audit-events', ['audit.read'], {
    summary: 'List the audit trail',
    description: `Every change to the team’s data, newest first: who made it (the user and the credential, the workflow, the provider or the operator), the operation, the target and its fields before and after (secrets never), the request id and address. An entry is written in the transaction of its change, so it exists exactly when the change does. ${OWNERS}`,
    input: schema.listAuditEventsQuery,
    output: page(schema.auditEventSchema),
    run: ({ principal, input }, { db }) => listAuditEvents(db, principal, input),
  }),
  query('auditEvents.verify', 'GET /audit-events/verify', ['audit.read'], {
    summary: 'Verify the audit trail',
    description: `Re-walks the team’s hash chain from its first entry, recomputing each entry’s hash from its content and the hash before it, and checks each signed daily checkpoint against it; reports the first broken link. ${OWNERS}`,
    output: one(schema.auditVerificationSchema),
    run: async ({ principal }, { db, config }) => {
      await assertAuditReader(db, principal);
      return verifyAuditTrail(db, principal.teamId, config.AUDIT_SIGNING_KEY);
    },
  }),
];
