import { z } from 'zod';
import type { Db } from '../../../db/knex';
import { validationError } from '../../../errors';
import type { ProposalOutcome } from '../../agent-actions/service';
import { hasScopes, type ResourceScope } from '../../auth/scopes';
import { isoDate } from '../../common/query';
import { formatAmountWithCode } from '../../currencies/money';
import { monthToDate, type Period } from '../period';

/** Who a tool works for: the same team scoping every service applies. */
export interface ToolContext {
  db: Db;
  teamId: string;
  userId: string;
  /** YYYY-MM-DD where the asker is. */
  today: string;
  /**
   * Proposes a write as an AgentAction for the caller (MCP, the chat): write tools call this and
   * never a service that writes. Absent where nobody can approve (a write tool then refuses).
   */
  propose?: (req: { tool: string; operation: string; input: unknown }) => Promise<ProposalOutcome>;
}

/** MCP's tool annotations: hints to the agent (and its user) about what calling the tool does. */
export interface ToolAnnotations {
  readOnlyHint: boolean;
  /** A write that may overwrite or remove what is there (not only add). */
  destructiveHint?: boolean;
  /** Calling it again with the same arguments changes nothing more. */
  idempotentHint?: boolean;
  /** It reaches beyond the team's books (an email to a customer). */
  openWorldHint: boolean;
}

/** A question as the offline intent parser reads it: the period it names is taken out of `rest`. */
export interface Question {
  /** As asked. */
  text: string;
  /** Lower case, without the period phrase and end punctuation. */
  rest: string;
  /** The same span of the original text (names keep their case). */
  restOriginal: string;
  period: Period | null;
  today: string;
}

/** What a tool spec declares; `defineTool` turns it into a registered tool. */
export interface ToolSpec<I extends z.ZodObject, R> {
  /** snake_case; what the model and MCP clients call. */
  name: string;
  title: string;
  /** For the model and MCP clients: what it answers and when to use it. */
  description: string;
  /** Offered only to callers holding every one of these. */
  scopes: readonly [ResourceScope, ...ResourceScope[]];
  /** Default: read-only, closed world. */
  annotations?: ToolAnnotations;
  input: I;
  run(ctx: ToolContext, input: z.output<I>): Promise<R>;
  /** Offline: the arguments when the question asks for this tool, else null. */
  understand?(q: Question): z.input<I> | null;
  /** Offline: the answer, its figures citing the result as `[ref]`. */
  answer(result: R, input: z.output<I>, ref: number): string;
}

/** A tool with its types settled, as the registry, the chat and MCP hold it. */
export interface ChatTool {
  name: string;
  title: string;
  description: string;
  scopes: readonly ResourceScope[];
  annotations: ToolAnnotations;
  input: z.ZodObject;
  understand(q: Question): Record<string, unknown> | null;
  /** Validates the arguments (400 with details) and runs; `answer` writes the offline sentence for the result. */
  execute(ctx: ToolContext, args: unknown): Promise<{ args: Record<string, unknown>; result: unknown; answer: (ref: number) => string }>;
}

const READ_ONLY: ToolAnnotations = { readOnlyHint: true, openWorldHint: false };

export function defineTool<I extends z.ZodObject, R>(spec: ToolSpec<I, R>): ChatTool {
  return {
    name: spec.name,
    title: spec.title,
    description: spec.description,
    scopes: spec.scopes,
    annotations: spec.annotations ?? READ_ONLY,
    input: spec.input,
    understand: (q) => spec.understand?.(q) ?? null,
    async execute(ctx, raw) {
      const parsed = spec.input.safeParse(raw ?? {});
      if (!parsed.success) throw validationError(parsed.error, `arguments of ${spec.name}`);
      const input = parsed.data;
      const result = await spec.run(ctx, input);
      return { args: input, result, answer: (ref) => spec.answer(result, input, ref) };
    },
  };
}

/** The tools a caller may use: every one whose scopes they hold. */
export const toolsFor = (tools: readonly ChatTool[], scopes: readonly string[]) => tools.filter((t) => hasScopes(scopes, t.scopes));

/** The optional date range most tools take. */
export const periodInput = {
  from: isoDate.optional().meta({ description: 'First day, inclusive (YYYY-MM-DD). Default: the first of this month.' }),
  to: isoDate.optional().meta({ description: 'Last day, inclusive. Default: today.' }),
};

/** The range asked for, else `fallback` (the month so far). */
export function periodOf(input: { from?: string; to?: string }, today: string, fallback: Period = monthToDate(today)): Period {
  if (!input.from && !input.to) return fallback;
  const from = input.from ?? fallback.from;
  const to = input.to ?? today;
  return { from, to, label: `${from} to ${to}` };
}

/** "from 2026-10-01 to 2026-10-31" */
export const span = (p: { from: string; to: string }) => (p.from === p.to ? `on ${p.from}` : `from ${p.from} to ${p.to}`);

/** Arguments for the range a question named, when it named one. */
export const periodArgs = (q: Question) => (q.period ? { from: q.period.from, to: q.period.to } : {});

/** 1,234.50 EUR, ¥1,000 as 1,000 JPY: in the currency's minor unit. */
export const money = formatAmountWithCode;
