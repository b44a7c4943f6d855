import type { TemporalGateway } from '../client';
import { Stage } from '../search-attribute-keys';
import { startOnce } from '../start';
import { summaryLine } from '../summary';
import { reEncryptContract, reEncryptId, reEncryptProgress, type ReEncryptInput, type ReEncryptProgress } from './contract';

/** Starts sealing every value again under the current key, once per key; returns the workflow id. */
export function startReEncrypt(temporal: TemporalGateway, input: ReEncryptInput, retiredKeys: number): Promise<string> {
  return startOnce(temporal, reEncryptContract, {
    workflowId: reEncryptId(input.keyId),
    args: [input],
    searchAttributes: [{ key: Stage, value: 'rewriting' }],
    summary: summaryLine('Re-encrypt', `key ${input.keyId}`, `${retiredKeys} retired ${retiredKeys === 1 ? 'key' : 'keys'}`),
  });
}

export async function queryReEncryptProgress(temporal: TemporalGateway, keyId: string): Promise<ReEncryptProgress> {
  return (await temporal.client()).workflow.getHandle(reEncryptId(keyId)).query(reEncryptProgress);
}
