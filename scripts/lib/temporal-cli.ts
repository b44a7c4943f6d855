import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { DevServerConfig } from '@temporalio/testing';
import { PROJECT_ROOT } from '../../shared/paths';
import { devServerDynamicConfigArgs } from '../../shared/temporal/dev-server';
import { searchAttributeKeys } from '../../shared/temporal/search-attribute-keys';

export const TEMPORAL_CLI_VERSION = 'v1.5.1';
const ROOT = PROJECT_ROOT;
const PROJECT_TOOLS = path.join(ROOT, '.tools');
// Shared between clones on one machine, so a second checkout does not rebuild for minutes.
const USER_CACHE = path.join(os.homedir(), '.cache', 'temporal-cli');

function onPath(): string | undefined {
  const r = spawnSync('sh', ['-c', 'command -v temporal'], { encoding: 'utf8' });
  const p = r.stdout.trim();
  return r.status === 0 && p ? p : undefined;
}

/** Finds the Temporal CLI: TEMPORAL_CLI, then PATH, then .tools/, then ~/.cache/temporal-cli/. */
export function findTemporalCli(explicit = process.env.TEMPORAL_CLI): string | undefined {
  if (explicit) {
    if (!existsSync(explicit)) throw new Error(`TEMPORAL_CLI points at ${explicit}, which does not exist`);
    return explicit;
  }
  return onPath() ?? [path.join(PROJECT_TOOLS, 'temporal'), path.join(USER_CACHE, 'temporal')].find((p) => existsSync(p));
}

/**
 * Builds the CLI with Go into ~/.cache/temporal-cli (a few minutes, once per machine).
 * v1.5.1 is the newest tag `go install` accepts: later tags carry a `replace` directive.
 */
export function buildTemporalCli(log: (m: string) => void = console.error): string {
  const go = spawnSync('sh', ['-c', 'command -v go'], { encoding: 'utf8' }).stdout.trim();
  if (!go) {
    throw new Error(
      'The Temporal CLI was not found (TEMPORAL_CLI, PATH, .tools/, ~/.cache/temporal-cli/) and Go is not installed to build it.\n' +
        'Install Go ≥ 1.25, or the Temporal CLI, or set TEMPORAL_ADDRESS to a running Temporal server.',
    );
  }
  mkdirSync(USER_CACHE, { recursive: true });
  log(`Building the Temporal CLI ${TEMPORAL_CLI_VERSION} with Go into ${USER_CACHE} (first run only; takes a few minutes)…`);
  execFileSync(go, ['install', `github.com/temporalio/cli/cmd/temporal@${TEMPORAL_CLI_VERSION}`], {
    env: { ...process.env, GOBIN: USER_CACHE, CGO_ENABLED: '0' },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  return path.join(USER_CACHE, 'temporal');
}

export const findOrBuildTemporalCli = (log?: (m: string) => void) => findTemporalCli() ?? buildTemporalCli(log);

/**
 * Our dev server as @temporalio/testing starts it (the suite, the benches, the replay fixtures): the
 * CLI built here, our search attributes and our server settings (plus a caller's own).
 */
export function localDevServer(
  extraConfig: Record<string, boolean | number | string> = {},
  overrides: Partial<Omit<DevServerConfig, 'type'>> = {},
): Omit<DevServerConfig, 'type'> {
  return {
    executable: { type: 'existing-path', path: findOrBuildTemporalCli() },
    searchAttributes: Object.values(searchAttributeKeys),
    extraArgs: devServerDynamicConfigArgs(extraConfig),
    ...overrides,
  };
}
