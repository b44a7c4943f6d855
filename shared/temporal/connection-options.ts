import { readFileSync } from 'node:fs';
import type { TLSConfig } from '@temporalio/client';
import type { Config } from '../config';

type TemporalConnectionConfig = Pick<
  Config,
  | 'TEMPORAL_ADDRESS'
  | 'TEMPORAL_TLS'
  | 'TEMPORAL_TLS_CERT'
  | 'TEMPORAL_TLS_KEY'
  | 'TEMPORAL_TLS_CA'
  | 'TEMPORAL_TLS_SERVER_NAME'
  | 'TEMPORAL_API_KEY'
>;

/**
 * What both connections take, the gateway's (`Connection`) and the worker's (`NativeConnection`):
 * the same fields in both SDK packages, so one mapping serves them and they never disagree.
 */
export interface TemporalConnectionOptions {
  address: string;
  /** Absent: plaintext. */
  tls?: TLSConfig;
  /** The SDK sends it as `authorization: Bearer <key>` on every call. */
  apiKey?: string;
}

const pem = (value: string, variable: string): Buffer => {
  if (value.trimStart().startsWith('-----BEGIN')) return Buffer.from(value);
  try {
    return readFileSync(value);
  } catch (err) {
    throw new Error(`${variable}: cannot read ${value}: ${(err as Error).message}`, { cause: err });
  }
};

/** Whether these settings connect over TLS: any TLS setting or an API key turns it on, unless TEMPORAL_TLS=false. */
export function usesTls(config: TemporalConnectionConfig): boolean {
  if (config.TEMPORAL_TLS !== undefined) return config.TEMPORAL_TLS;
  return Boolean(config.TEMPORAL_TLS_CERT || config.TEMPORAL_TLS_CA || config.TEMPORAL_TLS_SERVER_NAME || config.TEMPORAL_API_KEY);
}

/**
 * Turns the TEMPORAL_* settings into connection options. The config module has already refused a half
 * pair (a certificate without its key); a file that vanished since is named here.
 */
export function temporalConnectionOptions(config: TemporalConnectionConfig): TemporalConnectionOptions {
  const options: TemporalConnectionOptions = { address: config.TEMPORAL_ADDRESS };
  if (usesTls(config)) {
    const tls: TLSConfig = {};
    if (config.TEMPORAL_TLS_SERVER_NAME) tls.serverNameOverride = config.TEMPORAL_TLS_SERVER_NAME;
    if (config.TEMPORAL_TLS_CA) tls.serverRootCACertificate = pem(config.TEMPORAL_TLS_CA, 'TEMPORAL_TLS_CA');
    if (config.TEMPORAL_TLS_CERT && config.TEMPORAL_TLS_KEY) {
      tls.clientCertPair = {
        crt: pem(config.TEMPORAL_TLS_CERT, 'TEMPORAL_TLS_CERT'),
        key: pem(config.TEMPORAL_TLS_KEY, 'TEMPORAL_TLS_KEY'),
      };
    }
    options.tls = tls;
  }
  if (config.TEMPORAL_API_KEY) options.apiKey = config.TEMPORAL_API_KEY;
  return options;
}

/** The gateway's options for this configuration: the connection plus where it starts workflows. */
export const temporalGatewayOptions = (
  config: TemporalConnectionConfig & Pick<Config, 'TEMPORAL_NAMESPACE' | 'TEMPORAL_TASK_QUEUE'>,
  overrides: { taskQueue?: string } = {},
) => ({
  ...temporalConnectionOptions(config),
  namespace: config.TEMPORAL_NAMESPACE,
  taskQueue: overrides.taskQueue ?? config.TEMPORAL_TASK_QUEUE,
});

/** What may be logged about a connection: where it goes and how, never a key. */
export const describeTemporalConnection = (options: TemporalConnectionOptions) => ({
  address: options.address,
  tls: options.tls ? (options.tls.clientCertPair ? 'mtls' : 'tls') : 'off',
  apiKey: options.apiKey ? 'set' : 'unset',
});
