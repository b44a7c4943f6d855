import { z } from 'zod';
import type { LlmChatClient, LlmChatMessage, LlmToolCall, LlmToolSpec } from '../../providers/llm';
import type { ChatToolCall } from '../chat-conversations/schema';
import type { HistoryMessage } from '../chat-conversations/service';
import type { ChatTool, ToolContext } from './tools';
import { runToolCall, type EngineAnswer, type EngineEvent } from './engine';

// Enough for "compare revenue and spending", not enough for a model stuck in a loop.
const MAX_ROUNDS = 5;

const systemPrompt = (today: string, timeZone: string) =>
  [
    "You are the finance assistant of a business team. You answer questions about the team's money with the tools you are given.",
    `Today is ${today} (time zone ${timeZone}); resolve periods such as "last month" from it and pass dates as YYYY-MM-DD.`,
    'Use only figures from tool results; never estimate or invent one. Every tool result carries a `ref` number: cite each figure you state with the ref of the result it came from in square brackets, e.g. "1,200.00 EUR [1]".',
    'If no tool can answer, or a tool fails, say so plainly. Answer briefly, in the language of the question.',
  ].join('\n');

/** The tools as the chat completions API takes them: name, description, JSON Schema of the arguments. */
export const toolSpecs = (tools: readonly ChatTool[]): LlmToolSpec[] =>
  tools.map((t) => ({
    type: 'function',
    function: { name: t.name, description: t.description, parameters: z.toJSONSchema(t.input, { io: 'input' }) },
  }));

const parseArguments = (raw: string): unknown => {
  try {
    return raw.trim() ? (JSON.parse(raw) as unknown) : {};
  } catch {
    return { __unparseable: raw.slice(0, 200) };
  }
};

/**
 * Answers with the model (LLM_API_URL): it sees only the tools the caller's scopes allow, chooses
 * which to call, and writes the answer from their results, citing them by `ref`. Tokens stream as
 * the model writes them; tool calls and results stream as they run.
 */
export async function* answerWithModel(
  llm: LlmChatClient,
  ctx: ToolContext & { timeZone: string },
  history: readonly HistoryMessage[],
  text: string,
  offered: readonly ChatTool[],
): AsyncGenerator<EngineEvent, EngineAnswer> {
  const messages: LlmChatMessage[] = [
    { role: 'system', content: systemPrompt(ctx.today, ctx.timeZone) },
    ...history.map((m) => ({ role: m.role, content: m.content })),
    { role: 'user', content: text },
  ];
  const tools = toolSpecs(offered);
  const toolCalls: ChatToolCall[] = [];
  let content = '';
  for (let round = 0; round < MAX_ROUNDS; round++) {
    let said = '';
    let asked: LlmToolCall[] = [];
    for await (const part of llm.streamChat({ messages, tools })) {
      if (part.type === 'token') {
        said += part.text;
        yield { event: 'token', data: { text: part.text } };
      } else asked = part.calls;
    }
    content += said;
    if (asked.length === 0) return { content, toolCalls };
    messages.push({ role: 'assistant', content: said || null, tool_calls: asked });
    for (const call of asked) {
      const ref = toolCalls.length + 1;
      const args = parseArguments(call.function.arguments);
      yield {
        event: 'tool_call',
        data: {
          id: call.id,
          ref,
          name: call.function.name,
          arguments: typeof args === 'object' && args !== null ? (args as Record<string, unknown>) : {},
        },
      };
      const ran = await runToolCall(ctx, offered, { id: call.id, ref, name: call.function.name, args });
      toolCalls.push(ran.call);
      yield { event: 'tool_result', data: ran.call };
      messages.push({
        role: 'tool',
        tool_call_id: call.id,
        content: JSON.stringify(ran.call.error === null ? { ref, result: ran.call.result } : { ref, error: ran.call.error }),
      });
    }
  }
  const stopped = `${content ? '\n\n' : ''}(I stopped after ${MAX_ROUNDS} rounds of tool calls without a final answer.)`;
  yield { event: 'token', data: { text: stopped } };
  return { content: content + stopped, toolCalls };
}
