import Router from '@koa/router';
import type { Context } from 'koa';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { RESOURCE_SCOPES } from '../../shared/domain/auth/scopes';
import { CHAT_TOOLS, toolsFor, type ChatTool, type ToolContext } from '../../shared/domain/chat/tools';
import { todayIn } from '../../shared/domain/common/time-zone';
import { AppError } from '../../shared/errors';
import type { RequestAuthenticator } from '../auth/failure-throttle';
import { requireTeam } from '../auth/guard';
import type { ApiDeps } from '../deps';
import { readJsonBody } from '../http/json-body';
import type { AppState } from '../http/state';
import { withinTeam } from '../../shared/db/team-wall';

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

/**
 * The assistant's tools over the Model Context Protocol (streamable HTTP, stateless: every request
 * stands alone), behind the same bearer tokens as the API: an AI agent connects with an OAuth
 * access token (or an API key) and sees only the tools its scopes allow. The RFC 9728 metadata
 * tells an agent without a token where to get one.
 */
export function mcpRouter({ db, config }: Pick<ApiDeps, 'db' | 'config'>, authenticate: RequestAuthenticator) {
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

    const server = new McpServer({ name: 'finops', version: '0.0.1' }, { capabilities: { tools: {} } });
    const toolCtx: ToolContext = { db, teamId: principal.teamId, userId: principal.userId, today: todayIn('UTC') };
    for (const tool of toolsFor(CHAT_TOOLS, principal.scopes)) {
      server.registerTool(tool.name, { title: tool.title, description: tool.description, inputSchema: tool.input }, (args) =>
        callTool(tool, toolCtx, args),
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
