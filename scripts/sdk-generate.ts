import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { CLIENT_SCHEMA_PATH, clientSchemaSource } from './lib/client-schema';

/** npm run sdk:generate: rewrites clients/typescript/src/schema.d.ts from the operation declarations. */
async function main() {
  await writeFile(CLIENT_SCHEMA_PATH, await clientSchemaSource());
  console.log(`wrote ${path.relative(process.cwd(), CLIENT_SCHEMA_PATH)}`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
