import pino, { type DestinationStream, type Logger } from 'pino';
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
  const pretty = config.LOG_FORMAT === 'pretty' ? prettyStream() : null;
  return pretty ? pino(options, pretty) : pino(options);
}

/**
 * The pretty printer is a development tool (a devDependency): where it is not installed, as in the
 * production image, `pretty` falls back to JSON lines rather than failing to start.
 * Synchronous and in this thread: a transport's worker thread would outlive Ctrl-C and lose the last lines.
 */
function prettyStream(): DestinationStream | null {
  let pinoPretty: typeof import('pino-pretty');
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only when asked for, so production needs no copy
    pinoPretty = require('pino-pretty') as typeof import('pino-pretty');
  } catch {
    return null;
  }
  return pinoPretty({ colorize: true, sync: true, ignore: 'pid,hostname' });
}
