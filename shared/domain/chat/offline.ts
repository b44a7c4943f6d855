import type { ChatTool, ToolContext } from './tools';
import { asTokens, runToolCall, type EngineAnswer, type EngineEvent } from './engine';
import { parsePeriod } from './period';
import type { Question } from './tools/define';

/** The question as the tools' `understand` reads it: the period it names taken out, end punctuation dropped. */
export function readQuestion(text: string, today: string): Question {
  const lower = text.toLowerCase();
  const found = parsePeriod(lower, today);
  const cut = (s: string) => (found ? s.slice(0, found.index) + ' ' + s.slice(found.index + found.phrase.length) : s);
  const clean = (s: string) =>
    s
      .replace(/[?!.]+\s*$/, '')
      .replace(/\s+/g, ' ')
      .trim();
  return { text, rest: clean(cut(lower)), restOriginal: clean(cut(text)), period: found?.period ?? null, today };
}

const EXAMPLES: Record<string, string> = {
  spending: 'How much did we spend on software last month?',
  revenue: 'What was our revenue in March?',
  profit_and_loss: 'What was our profit last quarter?',
  runway: 'What is our runway?',
  unpaid_invoices: 'Which invoices are unpaid?',
  payments_to: 'How much did we pay Figma this year?',
  receipts_waiting: 'Which receipts are waiting?',
  tracked_time: 'How many hours did we track this month?',
  documents_search: 'Find documents about the office lease',
};

/**
 * Answers without a model: the first tool (in registry order) that understands the question runs
 * with the caller's scopes, and its own sentence is the answer. A question no tool understands, or
 * one the caller's scopes do not cover, gets a plain answer saying so, and no figures.
 */
export async function* answerOffline(
  ctx: ToolContext,
  text: string,
  tools: readonly ChatTool[],
  offered: readonly ChatTool[],
): AsyncGenerator<EngineEvent, EngineAnswer> {
  const question = readQuestion(text, ctx.today);
  let match: { tool: ChatTool; args: Record<string, unknown> } | undefined;
  for (const tool of tools) {
    const args = tool.understand(question);
    if (args) {
      match = { tool, args };
      break;
    }
  }
  if (!match) {
    const examples = offered.flatMap((t) => (EXAMPLES[t.name] ? [`"${EXAMPLES[t.name]}"`] : []));
    const content = examples.length
      ? `Sorry, I did not understand that question. I can answer questions such as ${examples.slice(0, 5).join(', ')}.`
      : 'Sorry, I did not understand that question, and this access has no financial data I could look at.';
    yield* asTokens(content);
    return { content, toolCalls: [] };
  }
  if (!offered.includes(match.tool)) {
    const content = `I cannot answer that with this access: ${match.tool.title.toLowerCase()} needs the ${match.tool.scopes.join(' and ')} scope${match.tool.scopes.length > 1 ? 's' : ''}.`;
    yield* asTokens(content);
    return { content, toolCalls: [] };
  }
  const call = { id: 'call_1', ref: 1, name: match.tool.name, args: match.args };
  yield { event: 'tool_call', data: { id: call.id, ref: call.ref, name: call.name, arguments: match.args } };
  const ran = await runToolCall(ctx, offered, call);
  yield { event: 'tool_result', data: ran.call };
  const content = ran.answer ? ran.answer(1) : `I could not get ${match.tool.title.toLowerCase()}: ${ran.call.error ?? 'it failed'}.`;
  yield* asTokens(content);
  return { content, toolCalls: [ran.call] };
}
