import { keyringOf } from '../../shared/domain/crypto/encryption';
import { reEncryptBatch, type ReEncryptBatch, type SealedColumn } from '../../shared/domain/crypto/re-encrypt';
import type { ActivityDeps } from '../deps';

export function reEncryptActivities({ db, config }: ActivityDeps) {
  return {
    /** One batch of one column; safe to run again (see reEncryptBatch). */
    async reEncryptBatch(input: { column: SealedColumn; after: string | null }): Promise<ReEncryptBatch> {
      return reEncryptBatch(db, keyringOf(config), { ...input, limit: config.RE_ENCRYPT_BATCH });
    },
  };
}

export type ReEncryptActivities = ReturnType<typeof reEncryptActivities>;
