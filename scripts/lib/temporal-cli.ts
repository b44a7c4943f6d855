import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { DevServerConfig } from '@temporalio/testing';
import { PROJECT_ROOT } from '../../shared/paths';
import { devServerDynamicConfigArgs } from '../../shared/temporal/dev-server';
import { searchAttributeKeys } from '../../shared/temporal/search-attribute-keys';
import { installReleaseBinary, officialReleaseUrl } from './temporal-cli-release';

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

/** Finds the Temporal CLI: TEMPORAL_CLI, then PATH, then .tools/, then ~/.cache/temporal-cli/. Installs nothing. */
export function findTemporalCli(explicit = process.env.TEMPORAL_CLI): string | undefined {
  if (explicit) {
    if (!existsSync(explicit)) throw new Error(`TEMPORAL_CLI points at ${explicit}, which does not exist`);
    return explicit;
  }
  return onPath() ?? [path.join(PROJECT_TOOLS, 'temporal'), path.join(USER_CACHE, 'temporal')].find((p) => existsSync(p));
}

/**
 * Builds the CLI with Go into the cache (a few minutes, once per machine): the fallback when no
 * release binary could be downloaded. v1.5.1 is the newest tag `go install` accepts: later tags
 * carry a `replace` directive.
 */
export function buildTemporalCli(log: (m: string) => void = console.error, cacheDir = USER_CACHE): string {
  const go = spawnSync('sh', ['-c', 'command -v go'], { encoding: 'utf8' }).stdout.trim();
  if (!go) {
    throw new Error(
      'The Temporal CLI was not found (TEMPORAL_CLI, PATH, .tools/, ~/.cache/temporal-cli/), could not be downloaded, and Go is not installed to build it.\n' +
        'Install Go ≥ 1.25, or the Temporal CLI, or set TEMPORAL_ADDRESS to a running Temporal server.',
    );
  }
  mkdirSync(cacheDir, { recursive: true });
  log(`Building the Temporal CLI ${TEMPORAL_CLI_VERSION} with Go into ${cacheDir} (first run only; takes a few minutes)…`);
  execFileSync(go, ['install', `github.com/temporalio/cli/cmd/temporal@${TEMPORAL_CLI_VERSION}`], {
    env: { ...process.env, GOBIN: cacheDir, CGO_ENABLED: '0' },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  return path.join(cacheDir, 'temporal');
}

export interface InstallOptions {
  log?: (m: string) => void;
  cacheDir?: string;
  /** Where the release's files are; TEMPORAL_CLI_DOWNLOAD_URL, else the official GitHub release. */
  baseUrl?: string;
  connectTimeoutMs?: number;
  downloadTimeoutMs?: number;
  platform?: NodeJS.Platform;
  arch?: string;
  /** The fallback; tests pass their own so that they do not run Go. */
  build?: (log: (m: string) => void, cacheDir: string) => string;
}

/**
 * Puts the CLI into the cache: the release binary when it downloads and its checksum matches, else a
 * build from source. A binary already in the cache is used as it is: never downloaded or built again.
 */
export async function installTemporalCli(opts: InstallOptions = {}): Promise<string> {
  const log = opts.log ?? console.error;
  const cacheDir = opts.cacheDir ?? USER_CACHE;
  const cached = path.join(cacheDir, 'temporal');
  if (existsSync(cached)) return cached;
  const version = TEMPORAL_CLI_VERSION.replace(/^v/, '');
  const baseUrl = opts.baseUrl ?? (process.env.TEMPORAL_CLI_DOWNLOAD_URL || officialReleaseUrl(version));
  log(`Downloading the Temporal CLI ${TEMPORAL_CLI_VERSION} from ${baseUrl} into ${cacheDir}…`);
  try {
    const installed = await installReleaseBinary(
      { version, baseUrl, connectTimeoutMs: opts.connectTimeoutMs ?? 5_000, downloadTimeoutMs: opts.downloadTimeoutMs ?? 180_000 },
      cacheDir,
      opts.platform,
      opts.arch,
    );
    log(`Installed the Temporal CLI release binary at ${installed}`);
    return installed;
  } catch (err) {
    log(`No release binary (${(err as Error).message}): building from source instead.`);
    return (opts.build ?? buildTemporalCli)(log, cacheDir);
  }
}

/** The CLI where it is found, else installed into the cache (downloaded, or built as the fallback). */
export const findOrInstallTemporalCli = async (opts: InstallOptions = {}) => findTemporalCli() ?? (await installTemporalCli(opts));

/**
 * The same for callers that cannot wait on a promise (the dev server's options are built synchronously):
 * the installer runs as a child process of its own.
 */
export function findOrBuildTemporalCli(log: (m: string) => void = console.error): string {
  const found = findTemporalCli();
  if (found) return found;
  log('The Temporal CLI is not installed yet: installing it (scripts/install-temporal-cli.ts)…');
  const tsx = require.resolve('tsx/cli', { paths: [ROOT] });
  const run = spawnSync(process.execPath, [tsx, path.join(ROOT, 'scripts', 'install-temporal-cli.ts')], {
    cwd: ROOT,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const installed = findTemporalCli();
  if (run.status !== 0 || !installed) throw new Error(`installing the Temporal CLI failed (exit ${run.status ?? run.signal})`);
  return installed;
}

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
