import path from 'node:path';
import { Client } from 'pg';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { createDb, migrateLatest } from '../../shared/db/knex';
import { startEmbeddedPostgres } from '../../scripts/lib/embedded-postgres';
import { localDevServer } from '../../scripts/lib/temporal-cli';
import { freePort, tcpAnswers } from '../../scripts/lib/ports';
import { buildWorkflowBundle } from '../../scripts/build-workflow-bundle';
import { startDatabaseReaper } from './database-reaper';
import { suiteResources } from './suite-resources';

/**
 * Starts what the suite needs, once: PostgreSQL (DATABASE_URL, else an embedded one) with a
 * migrated template database that each test file clones, a Temporal dev server (TEMPORAL_ADDRESS
 * when it answers, else the CLI binary), and the prebuilt workflow bundle.
 * Everything is handed to the test workers through environment variables.
 */
export default async function globalSetup(): Promise<void> {
  const root = path.resolve(__dirname, '..', '..');
  const started = performance.now();

  let adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) {
    const port = await freePort();
    const pg = await startEmbeddedPostgres({ dataDir: path.join(root, '.data', `test-pg-${process.pid}`), port, persistent: false });
    suiteResources.__embeddedPg = pg;
    adminUrl = pg.url('postgres');
  }
  const template = `finops_tpl_${process.pid}`;
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`drop database if exists ${template}`);
  await admin.query(`create database ${template}`);
  await admin.end();
  const templateUrl = withDatabase(adminUrl, template);
  const db = createDb({ url: templateUrl, poolMax: 1 });
  await migrateLatest(db);
  await db.destroy();
  suiteResources.__databaseReaper = await startDatabaseReaper(adminUrl);

  let temporalAddress = process.env.TEMPORAL_ADDRESS;
  if (!temporalAddress || !(await tcpAnswers(temporalAddress))) {
    const env = await TestWorkflowEnvironment.createLocal({
      server: localDevServer({ 'system.forceSearchAttributesCacheRefreshOnRead': true }, { ip: '127.0.0.1', port: await freePort() }),
    });
    suiteResources.__temporalEnv = env;
    temporalAddress = env.address;
  }

  const bundlePath = await buildWorkflowBundle(path.join(root, '.data', `test-workflow-bundle-${process.pid}.js`));

  Object.assign(process.env, {
    TEST_ADMIN_DATABASE_URL: adminUrl,
    TEST_TEMPLATE_DATABASE: template,
    TEMPORAL_ADDRESS: temporalAddress,
    WORKFLOW_BUNDLE_PATH: bundlePath,
    // Nothing in a test may reach the real rates source: a test that needs rates brings its own fake.
    FX_RATES_URL: process.env.FX_RATES_URL ?? 'http://127.0.0.1:9/unreachable-rates.xml',
    // Workers spawned by crash tests leave the shared dev server's schedules alone.
    FX_RATES_SCHEDULE: 'false',
    RETENTION_SCHEDULE: 'false',
    // Worker processes run side by side (and beside other suites on the machine): each probes on a port of its own.
    WORKER_HEALTH_PORT: process.env.WORKER_HEALTH_PORT ?? '0',
    METRICS_PORT: process.env.METRICS_PORT ?? '0',
  });
  suiteResources.__testTemplate = { adminUrl, template, bundlePath };
  console.log(
    `\n[setup] PostgreSQL, Temporal (${temporalAddress}) and workflow bundle ready in ${Math.round(performance.now() - started)} ms`,
  );
}

export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}
