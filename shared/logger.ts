import pino, { type Logger } from 'pino';
import type { Config } from './config';

export type { Logger };

/**
 * JSON lines. Anything that might carry a secret is redacted by path, so a careless log call
 * cannot leak a token or password.
 */
export function createLogger(config: Pick<Config, 'LOG_LEVEL'>, bindings: Record<string, unknown> = {}): Logger {
  return pino({
    level: config.LOG_LEVEL,
    base: bindings,
    redact: {
      paths: ['authorization', '*.authorization', 'headers.authorization', 'headers.cookie', 'password', '*.password', '*.token', '*.secret', '*.client_secret', '*.refresh_token', '*.code_verifier'],
      censor: '[redacted]',
    },
  });
}
