import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { RunningPostgres } from '../../scripts/lib/embedded-postgres';
import type { DatabaseReaper } from './database-reaper';

/** What the global setup started, for the global teardown: jest runs both in its main process, which shares `globalThis`. */
export interface SuiteResources {
  __embeddedPg?: RunningPostgres;
  __databaseReaper?: DatabaseReaper;
  __temporalEnv?: TestWorkflowEnvironment;
  __testTemplate?: { adminUrl: string; template: string; bundlePath: string };
}

export const suiteResources = globalThis as typeof globalThis & SuiteResources;
