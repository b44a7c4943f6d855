import type { ButtonReply } from '../../temporal/receipt-ingestion/contract';

export interface DecisionButton {
  action: ButtonReply['action'];
  inboxItemId: string;
  transactionId: string;
}

/** The id a chat button carries back when pressed: `confirm:<inbox item id>:<transaction id>`. */
export const decisionButtonId = (b: DecisionButton) => `${b.action}:${b.inboxItemId}:${b.transactionId}`;

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const BUTTON_ID = new RegExp(`^(confirm|decline):(${UUID}):(${UUID})$`, 'i');

/** Null for anything we did not send: a button id arrives from outside and is not trusted. */
export function parseDecisionButton(id: string): DecisionButton | null {
  const m = BUTTON_ID.exec(id);
  if (!m) return null;
  return { action: m[1].toLowerCase() === 'confirm' ? 'confirm' : 'decline', inboxItemId: m[2], transactionId: m[3] };
}
