import type { Connection } from '@temporalio/client';
import { TypedSearchAttributes, type SearchAttributeType } from '@temporalio/common';
import { encodeSearchAttributeIndexedValueType } from '@temporalio/common/lib/search-attributes';
import { searchAttributeKeys } from './search-attribute-keys';

const keys = Object.values(searchAttributeKeys);

function indexedValueType(type: SearchAttributeType) {
  const encoded = encodeSearchAttributeIndexedValueType(type);
  if (encoded === undefined) throw new Error(`Temporal has no index type for ${type}`);
  return encoded;
}

/** `--search-attribute` flags for `temporal server start-dev`, e.g. `TeamId=Keyword`. */
export const devServerSearchAttributeArgs = (): string[] =>
  keys.flatMap((k) => ['--search-attribute', `${k.name}=${TypedSearchAttributes.toMetadataType(k.type)}`]);

/**
 * Registers our search attributes on a server that lacks them (a fresh self-hosted cluster).
 * Idempotent: attributes that already exist are left alone.
 */
export async function ensureSearchAttributes(connection: Connection, namespace: string): Promise<void> {
  const existing = await connection.operatorService.listSearchAttributes({ namespace });
  const missing = keys.filter((k) => !(k.name in existing.customAttributes));
  if (missing.length === 0) return;
  await connection.operatorService.addSearchAttributes({
    namespace,
    searchAttributes: Object.fromEntries(missing.map((k) => [k.name, indexedValueType(k.type)])),
  });
}
