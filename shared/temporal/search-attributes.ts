import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';
import type { Connection } from '@temporalio/client';
import { SEARCH_ATTRIBUTES } from './names';

export const searchAttributeKeys = {
  TeamId: defineSearchAttributeKey('TeamId', SearchAttributeType.KEYWORD),
  ConnectionId: defineSearchAttributeKey('ConnectionId', SearchAttributeType.KEYWORD),
  InboxId: defineSearchAttributeKey('InboxId', SearchAttributeType.KEYWORD),
  Stage: defineSearchAttributeKey('Stage', SearchAttributeType.KEYWORD),
};

/** `--search-attribute` flags for `temporal server start-dev`. */
export const devServerSearchAttributeArgs = (): string[] =>
  Object.keys(SEARCH_ATTRIBUTES).flatMap((name) => ['--search-attribute', `${name}=Keyword`]);

/**
 * Registers our search attributes on a server that lacks them (a fresh self-hosted cluster).
 * Idempotent: attributes that already exist are left alone.
 */
export async function ensureSearchAttributes(connection: Connection, namespace: string): Promise<void> {
  const existing = await connection.operatorService.listSearchAttributes({ namespace });
  const missing = Object.keys(SEARCH_ATTRIBUTES).filter((n) => !(n in (existing.customAttributes ?? {})));
  if (missing.length === 0) return;
  await connection.operatorService.addSearchAttributes({
    namespace,
    // 2 = INDEXED_VALUE_TYPE_KEYWORD in the Temporal API enum.
    searchAttributes: Object.fromEntries(missing.map((n) => [n, 2])),
  });
}
