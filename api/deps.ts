import type { Config } from '../shared/config';
import type { Db } from '../shared/db/knex';
import type { Logger } from '../shared/logger';
import { createBankAClient, type BankAClient } from '../shared/providers/bank-a';
import { bankBClient, type BankBClient } from '../shared/providers/bank-b';
import { createLlmChatClient, type LlmChatClient } from '../shared/providers/llm';
import { createChatLimiter, type ChatLimiter } from '../shared/domain/chat/rate-limit';
import { createStorage, type Storage } from '../shared/providers/storage';
import type { TemporalGateway } from '../shared/temporal/client';
import { createLimiterStore, type LimiterStore } from './http/limiters';
import { createCredentialCache, type CredentialCache } from './auth/credential-cache';
import { createUploadTokens, type UploadTokens } from './auth/upload-token';
import { createEventWake, type EventWake } from './event-wake';
import { ApiMetrics } from './metrics';

/** Everything the gateway talks to; built once by createApiDeps (main.ts, or a test) and handed to createApp. */
export interface ApiDeps {
  config: Config;
  db: Db;
  temporal: TemporalGateway;
  logger: Logger;
  /** bank-a: public-token exchange on connection create, webhook verification keys. */
  bankA: BankAClient;
  /** bank-b: Connect sessions (link, reconnect) and checking an enrollment's token when it is linked. */
  bankB: BankBClient;
  /** Stored documents (inbox downloads). */
  storage: Storage;
  /** Rate-limit and brute-force counters shared by every API process. */
  limiters: LimiterStore;
  /** Found credentials, reused until a change to them is notified (AUTH_CACHE_TTL). */
  credentials: CredentialCache;
  /** Signed upload URLs for documents (tRPC documents.uploadUrl → POST /documents). */
  uploads: UploadTokens;
  /** Wakes long polls and streams of the event feed when their team's events commit (LISTEN, opened on first use). */
  eventWake: EventWake;
  /** The assistant: its model (LLM_API_URL, else none: the offline intent parser) and its per-user limit, counted in `limiters`. */
  assistant: { llm?: LlmChatClient; limiter: ChatLimiter };
  /** Counters and gauges /metrics serves (METRICS_PORT); main.ts's also carry the process's own. */
  metrics: ApiMetrics;
}

/** The one place ApiDeps is assembled; tests pass overrides to swap a piece. */
export function createApiDeps(base: Pick<ApiDeps, 'config' | 'db' | 'temporal' | 'logger'>, overrides: Partial<ApiDeps> = {}): ApiDeps {
  const { config } = base;
  const limiters = overrides.limiters ?? createLimiterStore(config, base.db);
  const chatWindowS = Math.max(1, Math.ceil(config.CHAT_RATE_LIMIT_WINDOW / 1000));
  const metrics = overrides.metrics ?? new ApiMetrics(base.db, { processMetrics: false });
  return {
    ...base,
    metrics,
    bankA: createBankAClient({ baseUrl: config.BANK_A_API_URL, clientId: config.BANK_A_CLIENT_ID, secret: config.BANK_A_SECRET }),
    bankB: bankBClient(config),
    storage: createStorage(config),
    limiters,
    uploads: createUploadTokens({ encryptionKey: config.ENCRYPTION_KEY, ttlMs: config.DOCUMENT_UPLOAD_URL_TTL, db: base.db }),
    credentials: createCredentialCache(base.db, { ttlMs: config.AUTH_CACHE_TTL, logger: base.logger }),
    eventWake: createEventWake(base.db, base.logger),
    assistant: {
      llm: config.LLM_API_URL
        ? createLlmChatClient({ baseUrl: config.LLM_API_URL, apiKey: config.LLM_API_KEY, model: config.LLM_MODEL })
        : undefined,
      limiter: countedRefusals(
        createChatLimiter({
          // A counter's row expires with the window that made it: a window of another length counts in rows of its own.
          counter: limiters.limiter({ keyPrefix: `assistant-${chatWindowS}s`, points: config.CHAT_RATE_LIMIT, durationS: chatWindowS }),
          limit: config.CHAT_RATE_LIMIT,
          logger: base.logger,
        }),
        metrics,
      ),
    },
    ...overrides,
  };
}

/** The assistant's budget, its refusals counted as the `assistant` limit's (chat messages and MCP tool calls alike). */
function countedRefusals(limiter: ChatLimiter, metrics: ApiMetrics): ChatLimiter {
  return {
    limit: limiter.limit,
    async take(userId) {
      const wait = await limiter.take(userId);
      if (wait !== null) metrics.rateLimited('assistant');
      return wait;
    },
  };
}
