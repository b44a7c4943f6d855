import Router from '@koa/router';
import type { Context } from 'koa';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isJSONRPCRequest, type CallToolResult, type JSONRPCErrorResponse } from '@modelcontextprotocol/sdk/types.js';
import { RESOURCE_SCOPES } from '../../shared/domain/auth/scopes';
import { askerTimeZone } from '../../shared/domain/chat/assistant';
import { CHAT_TOOLS, toolsFor, type ChatTool, type ToolContext } from '../../shared/domain/chat/tools';
import { todayIn } from '../../shared/domain/common/time-zone';
import { proposalDeps, proposeAgentAction } from '../../shared/domain/agent-actions/service';
import { AppError } from '../../shared/errors';
import type { RequestAuthenticator } from '../auth/failure-throttle';
import { budgetHeaders, takeAssistantBudget } from '../chat-budget';
import { requireTeam } from '../auth/guard';
import type { Principal } from '../../shared/domain/auth/principal';
import type { ApiDeps } from '../deps';
import { readJsonBody } from '../http/json-body';
import type { AppState } from '../http/state';
import { API_VERSION } from '../version';
import { asActor, withinTeam, type AuditActor } from '../../shared/db/team-wall';

export const MCP_PATH = '/mcp';

/** A tool's answer as MCP carries it: the result as JSON text (and structured), or the failure as a tool error the agent can read. */
async function callTool(tool: ChatTool, ctx: ToolContext, args: unknown): Promise<CallToolResult> {
  try {
    const { result } = await tool.execute(ctx, args);
    const structured =
      typeof result === 'object' && result !== null && !Array.isArray(result) ? (result as Record<string, unknown>) : undefined;
    return { content: [{ type: 'text', text: JSON.stringify(result) }], ...(structured ? { structuredContent: structured } : {}) };
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    return { isError: true, content: [{ type: 'text', text: err.description }] };
  }
}

// JSON-RPC leaves -32000 to -32099 to the server; MCP servers answer a rate limit with -32000.
const RATE_LIMITED = -32000;

/**
 * Each tool call in a POST costs one from the user's assistant budget, the one chat messages spend:
 * both run the same tools and reports. Over it, the POST is answered here and nothing runs: a
 * JSON-RPC error for each request in it (a protocol error, not a tool result with `isError`, which an
 * agent would read as the tool's answer), with `data.retryAfter` and the Retry-After header. True when refused.
 */
async function refuseOverBudget(ctx: Context, assistant: ApiDeps['assistant'], principal: Principal, body: unknown): Promise<boolean> {
  const messages: unknown[] = Array.isArray(body) ? body : [body];
  const calls = messages.filter((m) => isJSONRPCRequest(m) && m.method === 'tools/call').length;
  let refused = null;
  for (let i = 0; i < calls && !refused; i++) refused = await takeAssistantBudget(assistant, principal);
  if (!refused) return false;
  const error = {
    code: RATE_LIMITED,
    message: `Limit of ${refused.limit} assistant calls (chat messages and MCP tool calls) reached; retry in ${refused.retryAfter} s`,
    data: { retryAfter: refused.retryAfter },
  };
  const errors = messages.filter(isJSONRPCRequest).map((m): JSONRPCErrorResponse => ({ jsonrpc: '2.0', id: m.id, error }));
  ctx.set(budgetHeaders(refused));
  ctx.body = Array.isArray(body) ? errors : errors[0];
  return true;
}

/**
 * The assistant's tools over the Model Context Protocol (streamable HTTP, stateless: every request
 * stands alone), behind the same bearer tokens as the API: an AI agent connects with an OAuth
 * access token (or an API key) and sees only the tools its scopes allow. The RFC 9728 metadata
 * tells an agent without a token where to get one.
 */
export function mcpRouter(
  { db, config, assistant, temporal }: Pick<ApiDeps, 'db' | 'config' | 'assistant' | 'temporal'>,
  authenticate: RequestAuthenticator,
) {
  const router = new Router<AppState>();
  const base = (ctx: Context) => config.PUBLIC_URL ?? `${ctx.protocol}://${ctx.host}`;

  const metadata = (ctx: Context) => {
    ctx.set('Cache-Control', 'public, max-age=3600');
    ctx.body = {
      resource: `${base(ctx)}${MCP_PATH}`,
      authorization_servers: [base(ctx)],
      scopes_supported: [...RESOURCE_SCOPES],
      bearer_methods_supported: ['header'],
      resource_name: 'Finops MCP',
      resource_documentation: `${base(ctx)}/`,
    };
  };
  router.get('/.well-known/oauth-protected-resource', metadata);
  router.get(`/.well-known/oauth-protected-resource${MCP_PATH}`, metadata);

  router.all(MCP_PATH, async (ctx) => {
    let principal;
    try {
      principal = requireTeam(await authenticate(ctx));
    } catch (err) {
      if (!(err instanceof AppError) || err.status !== 401) throw err;
      // RFC 9728 §5.1: point the agent at the metadata that names our authorization server.
      ctx.set('WWW-Authenticate', `Bearer resource_metadata="${base(ctx)}/.well-known/oauth-protected-resource${MCP_PATH}"`);
      throw err;
    }
    ctx.state.principal = principal;
    const body = ctx.method === 'POST' ? await readJsonBody(ctx) : undefined;
    if (await refuseOverBudget(ctx, assistant, principal, body)) return;

    const server = new McpServer({ name: 'finops', version: API_VERSION }, { capabilities: { tools: {} } });
    const timeZone = await withinTeam(principal.teamId, () => askerTimeZone(db, principal));
    const toolCtx: ToolContext = {
      db,
      teamId: principal.teamId,
      userId: principal.userId,
      today: todayIn(timeZone),
      // A write tool's call becomes an AgentAction a person approves (or one the team's policy lets through).
      propose: (req) => proposeAgentAction({ db, ...proposalDeps(temporal, config, ctx.state.log) }, { principal, via: 'mcp' }, req),
    };
    // Only the tools its scopes allow are listed, and only they can be called.
    for (const tool of toolsFor(CHAT_TOOLS, principal.scopes)) {
      // An agent's tool call is the user's act through the MCP client their token belongs to.
      const actor: AuditActor = {
        op: `mcp:${tool.name}`,
        actor: 'user',
        actorId: principal.userId,
        cred: 'mcp',
        credId: principal.oauthApplicationId ?? principal.apiKeyId ?? null,
        req: ctx.state.requestId,
        ip: ctx.ip,
      };
      server.registerTool(
        tool.name,
        {
          title: tool.title,
          description: tool.description,
          inputSchema: tool.input,
          annotations: { title: tool.title, ...tool.annotations },
        },
        (args) => asActor(actor, () => callTool(tool, toolCtx, args)),
      );
    }
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    ctx.respond = false;
    ctx.res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await withinTeam(principal.teamId, async () => {
      await server.connect(transport);
      await transport.handleRequest(ctx.req, ctx.res, body);
    });
  });

  return router;
}
