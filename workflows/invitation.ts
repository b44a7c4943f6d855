import { condition, proxyActivities, setHandler, upsertSearchAttributes } from '@temporalio/workflow';
import type { InvitationActivities } from '../activities/teams/invitations';
import { Stage } from '../shared/temporal/search-attribute-keys';
import {
  invitationAccepted,
  invitationDeclined,
  invitationRevoked,
  invitationStage,
  type InvitationOutcome,
  type InvitationStage,
  type InvitationWorkflow,
} from '../shared/temporal/invitation/contract';

const { sendInvitationEmail, expireInvitation } = proxyActivities<InvitationActivities>({
  startToCloseTimeout: '30s',
  // A mail server that is down for a while must not lose the invitation: keep trying for a day.
  scheduleToCloseTimeout: '24h',
  retry: { initialInterval: '2s', backoffCoefficient: 2, maximumInterval: '10m' },
});

/**
 * Invitation (id `invitation:<invitationId>`): email → wait for accept, decline or revoke until the
 * reminder is due → one reminder → wait until expiry → expired. The API writes every decision to
 * the database and then signals; the run only stops waiting. The database stays the truth: an
 * email activity that finds the invitation decided ends the run with that outcome.
 */
export const invitation: InvitationWorkflow = async (input) => {
  let stage: InvitationStage = 'sending';
  // Set by the signal handlers; an object so its reads are not narrowed away between awaits.
  const decided: { outcome: InvitationOutcome | null } = { outcome: null };
  let reminded = false;
  const setStage = (s: InvitationStage) => {
    stage = s;
    upsertSearchAttributes([{ key: Stage, value: s }]);
  };
  setHandler(invitationStage, () => stage);
  // The first decision counts; a later one (a revoke racing an accept) was refused by the database already.
  setHandler(invitationAccepted, () => void (decided.outcome ??= 'accepted'));
  setHandler(invitationDeclined, () => void (decided.outcome ??= 'declined'));
  setHandler(invitationRevoked, () => void (decided.outcome ??= 'revoked'));
  const end = (o: InvitationOutcome) => {
    setStage(o);
    return { outcome: o, reminded };
  };
  // Workflow time is deterministic (replayed), so waiting "until" a moment is safe.
  const waitUntil = async (iso: string) => {
    const ms = Date.parse(iso) - Date.now();
    return ms > 0 ? condition(() => decided.outcome !== null, ms) : decided.outcome !== null;
  };

  const first = await sendInvitationEmail({ invitationId: input.invitationId, kind: 'invitation' });
  if (first.status !== 'pending') return end(first.status);
  setStage('waiting');

  if (!(await waitUntil(input.remindAt))) {
    const reminder = await sendInvitationEmail({ invitationId: input.invitationId, kind: 'reminder' });
    if (reminder.status !== 'pending') return end(reminder.status);
    reminded = reminder.sent;
    setStage('reminded');
    await waitUntil(input.expiresAt);
  }
  if (decided.outcome) return end(decided.outcome);
  return end(await expireInvitation({ invitationId: input.invitationId }));
};
