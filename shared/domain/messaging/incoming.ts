import type { Config } from '../../config';
import type { Db } from '../../db/knex';
import { MessagingConnection } from '../../db/models';
import type { TemporalGateway } from '../../temporal/client';
import { decisionReply } from '../../temporal/receipt-ingestion/contract';
import { startReceiptIngestion } from '../../temporal/receipt-ingestion/calls';
import { startChatReply, type ChatReplyReason } from '../../temporal/send-chat-message/calls';
import { parseAgentActionButton } from '../agent-actions/buttons';
import { decideAgentActionFromChat } from '../agent-actions/service';
import { parseDecisionButton } from '../receipts/chat-buttons';
import { isReceiptFile } from '../receipts/file-types';
import { submitDecision } from '../receipts/submit-decision';
import { findTeamByInboxId, INBOX_ID_PATTERN } from '../teams/inbox-id';
import type { WebhookOutcome } from '../webhook-events/record';

export interface ChatDeps {
  db: Db;
  temporal: TemporalGateway;
  config: Pick<Config, 'RECEIPT_DECISION_TIMEOUT'>;
}

/** A chat message as we act on it; the messaging webhook maps the provider's format to this. */
export type IncomingChatMessage = { id: string; from: string } & (
  | { kind: 'text'; text: string }
  | { kind: 'file'; mediaId: string; mimeType: string; fileName?: string; caption?: string }
  | { kind: 'button'; buttonId: string }
);

const HOW_TO = 'Send a photo or PDF of a receipt and it will be matched to its transaction.';
const WELCOME =
  'Hi! To send receipts here, connect this number to your team: reply with "Connect inbox <your inbox id>" (you find the inbox id in the app).';
const TAKEN = 'This number is already connected to another team. Disconnect it there first.';
const UNSUPPORTED = 'That file type is not supported. Send a JPEG, PNG, WebP or HEIC photo, a PDF, or an e-invoice as XML.';

/**
 * A message to our chat number: a text connects the number to a team (by inbox id), a file
 * becomes a receipt, a button press is a decision on a suggested match. Replies go out through
 * the SendChatMessage workflow, never from here.
 */
export async function receiveChatMessage(deps: ChatDeps, m: IncomingChatMessage): Promise<WebhookOutcome> {
  // Tagged with the team the number is connected to (none for a stranger), so its replies are found by TeamId.
  const reply = (teamId: string | null, text: string, reason: ChatReplyReason) =>
    startChatReply(deps.temporal, { incomingMessageId: m.id, teamId, reason }, { to: m.from, text });
  const conn = await MessagingConnection.query(deps.db).findOne({ phoneNumber: m.from });

  switch (m.kind) {
    case 'text': {
      const inboxId = INBOX_ID_PATTERN.exec(m.text.toLowerCase())?.[0];
      const team = inboxId ? await findTeamByInboxId(deps.db, inboxId) : undefined;
      if (team) {
        if (conn && conn.teamId !== team.id) return { outcome: 'processed', workflowId: await reply(conn.teamId, TAKEN, 'taken') };
        if (!conn) await MessagingConnection.query(deps.db).insert({ teamId: team.id, phoneNumber: m.from });
        return {
          outcome: 'processed',
          teamId: team.id,
          workflowId: await reply(team.id, `Connected to ${team.name}. ${HOW_TO}`, 'connected'),
        };
      }
      if (!conn) return { outcome: 'processed', workflowId: await reply(null, WELCOME, 'welcome') };
      return { outcome: 'processed', teamId: conn.teamId, workflowId: await reply(conn.teamId, HOW_TO, 'how-to') };
    }

    case 'file': {
      if (!conn) return { outcome: 'processed', workflowId: await reply(null, WELCOME, 'welcome') };
      if (!isReceiptFile(m.mimeType))
        return { outcome: 'processed', teamId: conn.teamId, workflowId: await reply(conn.teamId, UNSUPPORTED, 'unsupported-file') };
      const workflowId = await startReceiptIngestion(deps.temporal, {
        teamId: conn.teamId,
        source: 'messaging',
        reference: m.id,
        mediaId: m.mediaId,
        mimeType: m.mimeType,
        fileName: m.fileName,
        caption: m.caption,
        sender: m.from,
        phoneNumber: m.from,
        messageId: m.id,
        decisionTimeoutMs: deps.config.RECEIPT_DECISION_TIMEOUT,
      });
      return { outcome: 'processed', teamId: conn.teamId, workflowId };
    }

    case 'button': {
      const agentButton = parseAgentActionButton(m.buttonId);
      if (agentButton) {
        if (!conn) return { outcome: 'ignored' };
        // The run applies (or refuses) it while this waits; the answer goes back as a reply.
        const text = await decideAgentActionFromChat(deps.db, deps.temporal, conn.teamId, agentButton);
        if (text === null) return { outcome: 'ignored', teamId: conn.teamId };
        return { outcome: 'processed', teamId: conn.teamId, workflowId: await reply(conn.teamId, text, 'decision') };
      }
      const button = parseDecisionButton(m.buttonId);
      if (!conn || !button) return { outcome: 'ignored' };
      const { outcome, workflowId } = await submitDecision(deps, { teamId: conn.teamId, ...button, via: 'chat' });
      if (outcome === 'not_found') return { outcome: 'ignored', teamId: conn.teamId };
      // A waiting run applies the decision and sends the confirmation itself.
      if (outcome === 'signalled') return { outcome: 'processed', teamId: conn.teamId, workflowId };
      return { outcome: 'processed', teamId: conn.teamId, workflowId: await reply(conn.teamId, decisionReply(outcome), 'decision') };
    }
  }
}
