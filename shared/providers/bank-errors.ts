/** The bank says the credentials no longer work: the connection needs the user, retrying will not help. */
export class BankAuthError extends Error {
  constructor(
    readonly provider: string,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'BankAuthError';
  }
}

/** Anything else from the bank (5xx, rate limits, network): worth retrying with backoff. */
export class BankUnavailableError extends Error {
  constructor(
    readonly provider: string,
    message: string,
  ) {
    super(message);
    this.name = 'BankUnavailableError';
  }
}
