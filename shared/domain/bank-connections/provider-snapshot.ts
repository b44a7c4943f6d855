import type { BANK_PROVIDERS } from '../../db/models';
import { AppError, badRequest } from '../../errors';
import type { BankAClient } from '../../providers/bank-a';
import type { BankBClient } from '../../providers/bank-b';
import { BankAuthError, BankUnavailableError } from '../../providers/bank-errors';
import { bankAAccount, bankBAccounts, type ProviderAccount } from './provider-accounts';

/** What the provider says about a connection when it is linked or repaired. */
export interface ProviderSnapshot {
  accounts: ProviderAccount[];
  institution: { id: string | null; name: string } | null;
  /** bank-a's consent_expiration_time; bank-b's enrollments have none. */
  consentExpiresAt: Date | null;
  /** When the provider was asked: the snapshot says what was true then. */
  readAt: Date;
  /** The enrollment the token belongs to (bank-b), to check it against the one claimed; null for bank-a. */
  referenceId: string | null;
}

/**
 * Reads the connection's accounts with its access token (the one provider call a link or repair
 * makes in the request): a token the provider refuses is the client's 400, an unavailable provider 502.
 */
export async function readProvider(
  deps: { bankA: BankAClient; bankB: BankBClient },
  provider: (typeof BANK_PROVIDERS)[number],
  accessToken: string,
  field: string,
): Promise<ProviderSnapshot> {
  const readAt = new Date();
  try {
    if (provider === 'bank-a') {
      const { accounts, item } = await deps.bankA.getAccounts(accessToken);
      return {
        accounts: accounts.map(bankAAccount),
        institution: item.institution_name ? { id: item.institution_id ?? null, name: item.institution_name } : null,
        consentExpiresAt: item.consent_expiration_time ? new Date(item.consent_expiration_time) : null,
        readAt,
        referenceId: null,
      };
    }
    const { raw, accounts } = await bankBAccounts(deps.bankB, accessToken);
    return {
      accounts,
      institution: raw.at(0)?.institution ?? null,
      consentExpiresAt: null,
      readAt,
      referenceId: raw.at(0)?.enrollment_id ?? null,
    };
  } catch (err) {
    if (err instanceof BankAuthError)
      throw badRequest(`${provider} refused the credentials: ${err.code}`, [{ field, message: 'refused by the provider' }]);
    if (err instanceof BankUnavailableError) throw new AppError(502, 'Bad Gateway', `${provider} is unavailable; try again`);
    throw err;
  }
}
