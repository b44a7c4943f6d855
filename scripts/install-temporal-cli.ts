import { findOrInstallTemporalCli } from './lib/temporal-cli';

/**
 * Makes sure the Temporal CLI is there (CI, a fresh clone): found where it is, else the release
 * binary downloaded and its checksum checked, else built with Go. Prints the binary's path.
 */
findOrInstallTemporalCli()
  .then((cli) => console.log(cli))
  .catch((err: unknown) => {
    console.error((err as Error).message);
    process.exit(1);
  });
