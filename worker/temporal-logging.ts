import { Runtime, makeTelemetryFilterString, type LogLevel, type LogMetadata, type Logger as TemporalLogger } from '@temporalio/worker';
import type { Logger } from '../shared/logger';

const LEVELS: Record<LogLevel, 'trace' | 'debug' | 'info' | 'warn' | 'error'> = {
  TRACE: 'trace',
  DEBUG: 'debug',
  INFO: 'info',
  WARN: 'warn',
  ERROR: 'error',
};

/**
 * The Temporal SDK's logger as a pino child: every line the SDK, the workflows and the activities
 * log becomes one JSON line with its metadata (workflowId, activityType, …) as fields, and an
 * error as pino's `err`, instead of a multi-line dump between our lines.
 */
export function temporalLogger(logger: Logger): TemporalLogger {
  const write = (level: LogLevel, message: string, meta: LogMetadata = {}) => {
    const { error, failure, ...fields } = meta as LogMetadata & { error?: unknown; failure?: unknown };
    const err = error ?? failure;
    logger[LEVELS[level]](err === undefined ? fields : { ...fields, err }, message);
  };
  return {
    log: write,
    trace: (m, meta) => write('TRACE', m, meta),
    debug: (m, meta) => write('DEBUG', m, meta),
    info: (m, meta) => write('INFO', m, meta),
    warn: (m, meta) => write('WARN', m, meta),
    error: (m, meta) => write('ERROR', m, meta),
  };
}

/**
 * Installs the process-wide Temporal runtime with our logger, forwarding the Rust core's own lines
 * (connection trouble, retries) through it too. Once per process, before any worker or connection.
 * With `metricsBindAddress` (host:port) the SDK's own metrics (task slots, poll and schedule-to-start
 * latencies, sticky cache, activity and workflow outcomes) are served there in Prometheus's format.
 */
export function installTemporalRuntime(logger: Logger, opts: { metricsBindAddress?: string } = {}): void {
  // The SDK's INFO lines are start-up chatter (bundling, state changes); its warnings and errors matter.
  const level = logger.levelVal < logger.levels.values.warn && !['debug', 'trace'].includes(logger.level) ? 'warn' : logger.level;
  Runtime.install({
    logger: temporalLogger(logger.child({ component: 'temporal' }, { level })),
    telemetryOptions: {
      logging: { filter: makeTelemetryFilterString({ core: 'WARN', other: 'WARN' }), forward: {} },
      ...(opts.metricsBindAddress
        ? { metrics: { prometheus: { bindAddress: opts.metricsBindAddress, countersTotalSuffix: true, useSecondsForDurations: true } } }
        : {}),
    },
  });
}
