import type { Config } from '../../config';
import type { Db } from '../../db/knex';
import { asActor, type AuditActor } from '../../db/team-wall';
import { AgentAction, ApiKey, MessagingConnection, Notification, OAuthApplication, Team } from '../../db/models';
import { toIso } from '../../db/timestamps';
import { AppError, conflict, forbidden, notFound, validationError, workflowServiceUnreachable } from '../../errors';
import { approveAgentActionRun, declineAgentActionRun, startAgentAction } from '../../temporal/agent-action/calls';
import { AGENT_ACTION_REFUSALS, type AgentActionApplied, type AgentActionDecision } from '../../temporal/agent-action/contract';
import type { Logger } from '../../logger';
import type { TemporalGateway } from '../../temporal/client';
import type { Principal } from '../auth/principal';
import { hasScopes } from '../auth/scopes';
import { newestFirstPage, type CursorRow, type Page } from '../common/cursor';
import { notify } from '../notifications/service';
import { agentActionButtonId } from './buttons';
import { applicableOperation, changedSince, type AfterApplyDeps, type AgentActor } from './operations';
import type { AgentActionDto, AgentActionPolicies, ListAgentActionsQuery } from './schema';

type Refusal = (typeof AGENT_ACTION_REFUSALS)[keyof typeof AGENT_ACTION_REFUSALS];

/** A refusal to apply, with its kind: the workflow passes the kind on to the approver (409 for each). */
export class AgentActionRefused extends AppError {
  constructor(
    readonly refusal: Refusal,
    description: string,
  ) {
    super(409, 'Conflict', description);
  }
}

/** Who proposes: the caller's credential and user, and where the agent spoke (MCP or the chat assistant). */
export interface Proposer {
  principal: Principal;
  via: 'mcp' | 'chat';
}

export interface ProposeDeps extends AfterApplyDeps {
  db: Db;
  /** AGENT_ACTION_EXPIRY in ms. */
  expiryMs: number;
}

/** Where a process's agents propose: its Temporal, its settings, and its log for best-effort follow-ups. */
export const proposalDeps = (
  temporal: TemporalGateway,
  config: Pick<Config, 'LLM_API_URL' | 'AGENT_ACTION_EXPIRY'>,
  log: Pick<Logger, 'warn'>,
): Omit<ProposeDeps, 'db'> => ({
  temporal,
  config,
  expiryMs: config.AGENT_ACTION_EXPIRY,
  warn: (err, what) => log.warn({ err: String(err) }, what),
});

export interface ProposalRequest {
  /** The tool the agent called. */
  tool: string;
  /** The declared operation it proposes, and that operation's input. */
  operation: string;
  input: unknown;
}

export type ProposalOutcome =
  | { status: 'pending_approval'; actionId: string; preview: AgentActionDto['preview']; expiresAt: string }
  | { status: 'applied'; actionId: string; preview: AgentActionDto['preview']; result: unknown };

const clientIdOf = (p: Principal): string | null =>
  p.kind === 'oauth' ? (p.oauthApplicationId ?? null) : p.kind === 'api_key' ? (p.apiKeyId ?? null) : null;

async function clientNameOf(db: Db, p: Principal): Promise<string | null> {
  if (p.kind === 'oauth' && p.oauthApplicationId)
    return (await OAuthApplication.query(db).findById(p.oauthApplicationId).select('name'))?.name ?? null;
  if (p.kind === 'api_key' && p.apiKeyId) return (await ApiKey.query(db).findById(p.apiKeyId).select('name'))?.name ?? null;
  return null;
}

export async function teamPolicies(db: Db, teamId: string): Promise<AgentActionPolicies> {
  const team = await Team.query(db).findById(teamId).select('agentActionPolicies');
  return { policies: team?.agentActionPolicies ?? [] };
}

export async function setTeamPolicies(db: Db, teamId: string, body: AgentActionPolicies): Promise<AgentActionPolicies> {
  await Team.query(db).findById(teamId).patch({ agentActionPolicies: body.policies });
  return teamPolicies(db, teamId);
}

/**
 * An agent's write, proposed: the operation's input is checked, its preview computed (a filter
 * resolved to the rows it selects now) and stored with the versions of the rows it read. Under a
 * team policy's limit it is applied at once, through the same path as an approval; otherwise the
 * AgentAction run notifies the team and waits for a person's decision.
 */
export async function proposeAgentAction(deps: ProposeDeps, proposer: Proposer, req: ProposalRequest): Promise<ProposalOutcome> {
  const { db } = deps;
  const { principal } = proposer;
  const op = applicableOperation(req.operation);
  const parsed = op.input.safeParse(req.input);
  if (!parsed.success) throw validationError(parsed.error, `input of ${req.operation}`);
  const prepared = await op.prepare(db, principal.teamId, parsed.data);
  const clientName = await clientNameOf(db, principal);
  const { policies } = await teamPolicies(db, principal.teamId);
  const limit = policies.find((p) => p.operation === op.name)?.maxCount;
  const row = await AgentAction.query(db).insertAndFetch({
    teamId: principal.teamId,
    operation: op.name,
    input: prepared.input,
    preview: { ...prepared.preview },
    versions: prepared.versions,
    tool: req.tool,
    via: proposer.via,
    proposedByUserId: principal.userId,
    proposedByKind: principal.kind,
    proposedByClientId: clientIdOf(principal),
    clientName,
    expiresAt: new Date(Date.now() + deps.expiryMs),
  });
  if (limit !== undefined && prepared.preview.count <= limit) {
    const applied = await applyAgentAction(deps, row.id, { userId: null, via: 'policy' });
    return { status: 'applied', actionId: row.id, preview: prepared.preview, result: applied.result };
  }
  const expiresAt = toIso(row.expiresAt);
  try {
    await startAgentAction(
      deps.temporal,
      { actionId: row.id, teamId: row.teamId, userId: principal.userId, operation: op.name, expiresAt },
      { summary: prepared.preview.summary, clientName },
    );
  } catch (err) {
    // Nothing waits for it: a row nobody could approve is not left pending.
    await AgentAction.query(db).findById(row.id).delete();
    throw workflowServiceUnreachable(err);
  }
  return { status: 'pending_approval', actionId: row.id, preview: prepared.preview, expiresAt };
}

/**
 * Applies an approved action once: the row is locked, a row that is already applied answers its
 * stored result (a retry after the commit), anything but pending is refused, and a row the preview
 * read that changed since refuses it (the action becomes stale). The operation runs in the same
 * transaction as the status change, so it is applied exactly once. The actor (the agent, who
 * approved it) is handed to the operation.
 */
export async function applyAgentAction(
  deps: AfterApplyDeps & { db: Db },
  actionId: string,
  decision: { userId: string | null; via: 'api' | 'chat' | 'policy' },
): Promise<AgentActionApplied> {
  // Its writes are on the audit trail as the agent's, for the user who proposed through it; the
  // connection takes its audit context when the transaction begins, so it is set before.
  const proposed = await AgentAction.query(deps.db).findById(actionId);
  if (!proposed) throw notFound(`Agent action ${actionId} not found`);
  const auditActor: AuditActor = {
    op: proposed.operation,
    actor: 'agent',
    actorId: proposed.proposedByUserId,
    cred: proposed.proposedByKind === 'api_key' ? 'api_key' : proposed.proposedByKind === 'oauth' ? 'oauth' : 'session',
    credId: proposed.proposedByClientId,
  };
  let applied: AgentActionApplied;
  try {
    applied = await asActor(auditActor, () => applyLocked(deps, actionId, decision));
  } catch (err) {
    if (!(err instanceof AppError) || err.status === 404) throw err;
    // Refused for good: recorded, so the list says why nothing happened.
    const status = err instanceof AgentActionRefused ? (err.refusal === AGENT_ACTION_REFUSALS.changed ? 'stale' : null) : 'failed';
    if (status)
      await AgentAction.query(deps.db).findById(actionId).where({ status: 'pending' }).patch({
        status,
        error: err.description,
        decidedByUserId: decision.userId,
        decidedVia: decision.via,
        decidedAt: new Date(),
        updatedAt: new Date(),
      });
    if (err instanceof AgentActionRefused) throw err;
    throw new AgentActionRefused(AGENT_ACTION_REFUSALS.refused, `${err.description} (${err.status}); nothing was applied`);
  }
  await applicableOperation(applied.operation).afterApply?.(deps, proposed.teamId, applied.result);
  return applied;
}

/** The apply itself, in one transaction with the row locked (see applyAgentAction). */
function applyLocked(
  deps: { db: Db; temporal: TemporalGateway },
  actionId: string,
  decision: { userId: string | null; via: 'api' | 'chat' | 'policy' },
): Promise<AgentActionApplied> {
  return deps.db.transaction(async (trx) => {
    const row = await AgentAction.query(trx).findById(actionId).forUpdate();
    if (!row) throw notFound(`Agent action ${actionId} not found`);
    if (row.status === 'applied') return { actionId, operation: row.operation, result: row.result };
    if (row.status !== 'pending') throw new AgentActionRefused(AGENT_ACTION_REFUSALS.notPending, `The action is ${row.status}`);
    const changed = await changedSince(trx, row.teamId, row.versions);
    if (changed.length)
      throw new AgentActionRefused(
        AGENT_ACTION_REFUSALS.changed,
        `${changed.length} of the rows it previewed changed since; nothing was applied (propose it again)`,
      );
    const actor: AgentActor = {
      agentActionId: row.id,
      userId: row.proposedByUserId,
      clientKind: row.proposedByKind,
      clientId: row.proposedByClientId,
      clientName: row.clientName,
      approvedByUserId: decision.userId,
      approvedVia: decision.via,
    };
    const result: unknown = await applicableOperation(row.operation).apply(
      { db: trx, temporal: deps.temporal },
      row.teamId,
      actor,
      row.input,
    );
    const stored = JSON.parse(JSON.stringify(result ?? null)) as unknown;
    await AgentAction.query(trx).findById(row.id).patch({
      status: 'applied',
      result: stored,
      decidedByUserId: decision.userId,
      decidedVia: decision.via,
      decidedAt: new Date(),
      updatedAt: new Date(),
    });
    return { actionId, operation: row.operation, result: stored };
  });
}

/** Ends a pending action without applying it (declined, or expired); the status it has after. */
export async function closeAgentAction(
  db: Db,
  actionId: string,
  status: 'declined' | 'expired',
  decision: AgentActionDecision | null,
): Promise<string> {
  await AgentAction.query(db)
    .findById(actionId)
    .where({ status: 'pending' })
    .patch({
      status,
      decidedByUserId: decision?.userId ?? null,
      decidedVia: decision?.via ?? 'timeout',
      decidedAt: new Date(),
      updatedAt: new Date(),
    });
  return (await AgentAction.query(db).findById(actionId).select('status'))?.status ?? status;
}

/** The in-app notice for the user the agent acts for (the whole team when none), once however often it is asked. */
export async function notifyAgentActionProposed(db: Db, actionId: string): Promise<void> {
  await db.transaction(async (trx) => {
    const row = await AgentAction.query(trx).findById(actionId).forUpdate();
    if (!row) return;
    const sent = await Notification.query(trx)
      .where({ teamId: row.teamId, type: 'agent_action_proposed' })
      .whereRaw(`metadata->>'agentActionId' = ?`, [actionId])
      .first();
    if (sent) return;
    await notify(trx, {
      teamId: row.teamId,
      userId: row.proposedByUserId,
      type: 'agent_action_proposed',
      priority: 2,
      metadata: {
        agentActionId: row.id,
        operation: row.operation,
        summary: String(row.preview.summary),
        clientName: row.clientName,
        expiresAt: toIso(row.expiresAt),
      },
    });
  });
}

/** The team's chat numbers to ask with approve and decline buttons, and what to ask. */
export async function agentActionChatPrompt(
  db: Db,
  actionId: string,
): Promise<{ phoneNumbers: string[]; text: string; buttons: { id: string; title: string }[] } | null> {
  const row = await AgentAction.query(db).findById(actionId);
  if (!row || row.status !== 'pending') return null;
  const phoneNumbers = (await MessagingConnection.query(db).where({ teamId: row.teamId }).select('phoneNumber')).map((c) => c.phoneNumber);
  const who = row.clientName ?? 'An AI agent';
  return {
    phoneNumbers,
    text: `${who} proposes: ${String(row.preview.summary)}. Approve it?`,
    buttons: [
      { id: agentActionButtonId('approve', row.id), title: 'Approve' },
      { id: agentActionButtonId('decline', row.id), title: 'Decline' },
    ],
  };
}

interface ActionRow extends CursorRow {
  [column: string]: unknown;
}

function toDto(row: AgentAction): AgentActionDto {
  const preview = row.preview as AgentActionDto['preview'];
  return {
    id: row.id,
    operation: row.operation,
    tool: row.tool,
    input: row.input,
    status: row.status,
    via: row.via,
    preview: { summary: preview.summary, count: preview.count, sample: preview.sample },
    proposedBy: { kind: row.proposedByKind, clientId: row.proposedByClientId, clientName: row.clientName, userId: row.proposedByUserId },
    decision: row.decidedVia && row.decidedAt ? { via: row.decidedVia, userId: row.decidedByUserId, at: toIso(row.decidedAt) } : null,
    result: row.result ?? null,
    error: row.error,
    expiresAt: toIso(row.expiresAt),
    createdAt: toIso(row.createdAt),
    updatedAt: toIso(row.updatedAt),
  };
}

export async function listAgentActions(db: Db, teamId: string, query: ListAgentActionsQuery): Promise<Page<AgentActionDto>> {
  const q = db('agent_actions as a')
    .where('a.team_id', teamId)
    .select<ActionRow[]>('a.*', db.raw('a.created_at::text as cursor_created_at'));
  if (query.status) q.whereIn('a.status', query.status);
  return newestFirstPage(q, 'a', query, (r) => toDto(AgentAction.fromDatabaseJson(r)));
}

export async function getAgentAction(db: Db, teamId: string, id: string): Promise<AgentActionDto> {
  const row = await AgentAction.query(db).findOne({ teamId, id });
  if (!row) throw notFound(`Agent action ${id} not found`);
  return toDto(row);
}

/** Only a credential other than the proposing one decides for it, and only one that may do the operation itself. */
async function decidable(db: Db, principal: Principal, id: string, what: 'approve' | 'decline'): Promise<AgentAction> {
  const row = await AgentAction.query(db).findOne({ teamId: principal.teamId, id });
  if (!row) throw notFound(`Agent action ${id} not found`);
  const op = applicableOperation(row.operation);
  if (what === 'approve') {
    if (row.proposedByClientId && clientIdOf(principal) === row.proposedByClientId)
      throw forbidden('The client that proposed an action cannot approve it: a person approves it, in the app or with another credential');
    if (!hasScopes(principal.scopes, op.scopes)) throw forbidden(`Approving it applies ${op.name}, which needs ${op.scopes.join(' and ')}`);
  }
  if (row.status !== 'pending') throw conflict(`The action is ${row.status}`);
  if (row.expiresAt.getTime() <= Date.now()) throw conflict(`The action expired at ${toIso(row.expiresAt)}`);
  return row;
}

function refusedBy(outcome: { type: string; message: string }): AppError {
  if ((Object.values(AGENT_ACTION_REFUSALS) as string[]).includes(outcome.type)) return conflict(outcome.message);
  return new AppError(500, 'Internal Server Error', 'The action could not be applied');
}

/** Approves: the run applies it and answers with the result, synchronously; refused (409) when it expired, was decided, or its rows changed. */
export async function approveAgentAction(
  db: Db,
  temporal: TemporalGateway,
  principal: Principal,
  id: string,
): Promise<{ action: AgentActionDto; result: unknown }> {
  await decidable(db, principal, id, 'approve');
  const outcome = await approveAgentActionRun(temporal, id, { userId: principal.userId, via: 'api' }).catch((err: unknown) => {
    throw workflowServiceUnreachable(err);
  });
  if (!outcome.ok) throw refusedBy(outcome);
  return { action: await getAgentAction(db, principal.teamId, id), result: outcome.value.result };
}

export async function declineAgentAction(db: Db, temporal: TemporalGateway, principal: Principal, id: string): Promise<AgentActionDto> {
  await decidable(db, principal, id, 'decline');
  const outcome = await declineAgentActionRun(temporal, id, { userId: principal.userId, via: 'api' }).catch((err: unknown) => {
    throw workflowServiceUnreachable(err);
  });
  if (!outcome.ok) throw refusedBy(outcome);
  return getAgentAction(db, principal.teamId, id);
}

/** A chat button press from a number connected to the team: the reply to send back. */
export async function decideAgentActionFromChat(
  db: Db,
  temporal: TemporalGateway,
  teamId: string,
  button: { action: 'approve' | 'decline'; actionId: string },
): Promise<string | null> {
  const row = await AgentAction.query(db).findOne({ teamId, id: button.actionId });
  if (!row) return null;
  if (row.status !== 'pending') return `This action is already ${row.status}.`;
  const decision: AgentActionDecision = { userId: null, via: 'chat' };
  if (button.action === 'decline') {
    const outcome = await declineAgentActionRun(temporal, row.id, decision);
    return outcome.ok ? 'Declined: nothing was changed.' : `Not declined: ${outcome.message}.`;
  }
  const outcome = await approveAgentActionRun(temporal, row.id, decision);
  return outcome.ok ? `Approved and applied: ${String(row.preview.summary)}.` : `Not applied: ${outcome.message}.`;
}
