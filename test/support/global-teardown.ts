import { rmSync } from 'node:fs';
import { Client } from 'pg';
import { suiteResources as g } from './suite-resources';

export default async function globalTeardown(): Promise<void> {
  await g.__databaseReaper?.stop();
  await g.__temporalEnv?.teardown();
  if (g.__testTemplate) {
    const { adminUrl, template, bundlePath } = g.__testTemplate;
    rmSync(bundlePath, { force: true });
    if (!g.__embeddedPg) {
      const admin = new Client({ connectionString: adminUrl });
      await admin.connect();
      // The reaper drops what test files hand it; this catches any a crashed file left behind.
      const { rows } = await admin.query(`select datname from pg_database where datname like $1`, [`finops_t_${process.pid}_%`]);
      for (const r of rows) await admin.query(`drop database if exists "${r.datname}" with (force)`);
      await admin.query(`drop database if exists ${template} with (force)`);
      await admin.end();
    }
  }
  await g.__embeddedPg?.stop();
}
