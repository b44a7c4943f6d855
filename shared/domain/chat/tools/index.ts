import { WRITE_TOOLS } from './agent-writes';
import { burnRateTool } from './burn-rate';
import { cashFlowTool } from './cash-flow';
import { categoryWhyTool } from './category-why';
import type { ChatTool } from './define';
import { documentsSearchTool } from './documents-search';
import { paymentsToTool } from './payments-to';
import { profitAndLossTool } from './profit-and-loss';
import { receiptsWaitingTool } from './receipts-waiting';
import { revenueTool } from './revenue';
import { runwayTool } from './runway';
import { spendingTool } from './spending';
import { trackedTimeTool } from './tracked-time';
import { transactionsSearchTool } from './transactions-search';
import { unpaidInvoicesTool } from './unpaid-invoices';

export { toolsFor, type ChatTool, type ToolContext } from './define';

/**
 * Every tool of the assistant, for chat (the model, or the offline intent parser) and MCP alike;
 * each is offered only to callers holding its scopes. A tool is one file (`defineTool`: its input,
 * what it runs, how the offline parser recognises a question for it and answers it) plus its line
 * here. The offline parser tries them in this order, so the narrower questions come first
 * (documents before anything their words might name, runway before spending, payments to a merchant
 * before spending by category).
 */
export const CHAT_TOOLS: readonly ChatTool[] = [
  documentsSearchTool,
  categoryWhyTool,
  runwayTool,
  burnRateTool,
  cashFlowTool,
  unpaidInvoicesTool,
  receiptsWaitingTool,
  trackedTimeTool,
  profitAndLossTool,
  revenueTool,
  paymentsToTool,
  spendingTool,
  transactionsSearchTool,
  // Writes last: none has an offline `understand`, and each only proposes (an AgentAction).
  ...WRITE_TOOLS,
];
