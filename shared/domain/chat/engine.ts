import { AppError } from '../../errors';
import type { ChatCitation, ChatToolCall } from '../chat-conversations/schema';
import type { ChatTool, ToolContext } from './tools';
import type { ChatEvent } from './schema';

/** What an answering engine (the model, or the offline parser) streams before the answer is stored. */
export type EngineEvent = Extract<ChatEvent, { event: 'token' | 'tool_call' | 'tool_result' }>;

/** The answer an engine ends with. */
export interface EngineAnswer {
  content: string;
  toolCalls: ChatToolCall[];
}

/** Runs one tool call for the caller: its result, or why it failed (bad arguments, a missing scope), as the model and the user see it. */
export async function runToolCall(
  ctx: ToolContext,
  offered: readonly ChatTool[],
  call: { id: string; ref: number; name: string; args: unknown },
): Promise<{ call: ChatToolCall; answer?: (ref: number) => string }> {
  const base = { id: call.id, ref: call.ref, name: call.name };
  const tool = offered.find((t) => t.name === call.name);
  const argsRecord = typeof call.args === 'object' && call.args !== null ? (call.args as Record<string, unknown>) : {};
  if (!tool) return { call: { ...base, arguments: argsRecord, result: null, error: `No tool ${call.name} is available to this caller` } };
  try {
    const done = await tool.execute(ctx, call.args);
    return { call: { ...base, arguments: done.args, result: done.result, error: null }, answer: done.answer };
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    return { call: { ...base, arguments: argsRecord, result: null, error: err.description } };
  }
}

/** Citations for the `[n]` markers an answer carries, each tied to the tool call whose result it cites. */
export function citationsOf(content: string, toolCalls: readonly ChatToolCall[]): ChatCitation[] {
  const refs = new Set([...content.matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1])));
  return toolCalls.filter((c) => refs.has(c.ref) && c.error === null).map((c) => ({ ref: c.ref, toolCallId: c.id, tool: c.name }));
}

/** An answer written at once, streamed word by word as a model would. */
export function* asTokens(text: string): Generator<EngineEvent> {
  for (const piece of text.match(/\S+\s*/g) ?? []) yield { event: 'token', data: { text: piece } };
}
