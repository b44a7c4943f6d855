import pino, { type DestinationStream, type Logger } from 'pino';
import pinoPretty from 'pino-pretty';
import type { Config } from './config';

export type { Logger };

/**
 * JSON lines (or, for a person at a terminal, the same lines pretty-printed). Anything that might
 * carry a secret is redacted by path, so a careless log call cannot leak a token or password.
 */
export function createLogger(config: Pick<Config, 'LOG_LEVEL' | 'LOG_FORMAT'>, bindings: Record<string, unknown> = {}): Logger {
  const options = {
    level: config.LOG_LEVEL,
    base: bindings,
    redact: {
      paths: [
        'authorization',
        '*.authorization',
        'headers.authorization',
        'headers.cookie',
        'password',
        'apiKey',
        '*.apiKey',
        '*.password',
        '*.token',
        '*.secret',
        '*.client_secret',
        '*.refresh_token',
        '*.code_verifier',
      ],
      censor: '[redacted]',
    },
  };
  return config.LOG_FORMAT === 'pretty' ? pino(options, prettyStream()) : pino(options);
}

// Synchronous and in this thread: a transport's worker thread would outlive Ctrl-C and lose the last lines.
const prettyStream = (): DestinationStream => pinoPretty({ colorize: true, sync: true, ignore: 'pid,hostname' });
