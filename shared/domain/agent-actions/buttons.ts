/** The id a chat button carries back when pressed: `agent-approve:<action id>` or `agent-decline:<action id>`. */
export const agentActionButtonId = (action: 'approve' | 'decline', actionId: string) => `agent-${action}:${actionId}`;

const BUTTON_ID = /^agent-(approve|decline):([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;

/** Null for anything we did not send: a button id arrives from outside and is not trusted. */
export function parseAgentActionButton(id: string): { action: 'approve' | 'decline'; actionId: string } | null {
  const m = BUTTON_ID.exec(id);
  if (!m) return null;
  return { action: m[1].toLowerCase() === 'approve' ? 'approve' : 'decline', actionId: m[2].toLowerCase() };
}
