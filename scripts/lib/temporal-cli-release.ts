import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The Temporal CLI's release binaries: downloaded, checked against the release's checksums file,
 * unpacked into the cache. Everything here throws on a failure; the caller falls back to building.
 */

export interface ReleaseSource {
  /** The version without its `v`: 1.5.1. */
  version: string;
  /** The folder holding the release's files, ending in `/`. */
  baseUrl: string;
  /** How long to wait for a server's first answer: offline, a download fails this fast. */
  connectTimeoutMs: number;
  /** The longest a whole download may take. */
  downloadTimeoutMs: number;
}

export const officialReleaseUrl = (version: string) => `https://github.com/temporalio/cli/releases/download/v${version}/`;

/** The archive's name for a platform, or undefined where no release archive is a plain tarball (Windows ships a zip). */
export function releaseArchiveName(version: string, platform: NodeJS.Platform, arch: string): string | undefined {
  const os = ({ linux: 'linux', darwin: 'darwin' } as Partial<Record<NodeJS.Platform, string>>)[platform];
  const cpu = ({ x64: 'amd64', arm64: 'arm64' } as Record<string, string>)[arch];
  return os && cpu ? `temporal_cli_${version}_${os}_${cpu}.tar.gz` : undefined;
}

export const checksumsFileName = (version: string) => `temporal_cli_${version}_checksums.txt`;

async function download(url: string, source: ReleaseSource): Promise<Buffer> {
  const answered = new AbortController();
  const connectTimer = setTimeout(
    () => answered.abort(new Error(`no answer within ${source.connectTimeoutMs} ms`)),
    source.connectTimeoutMs,
  );
  const signal = AbortSignal.any([answered.signal, AbortSignal.timeout(source.downloadTimeoutMs)]);
  try {
    const res = await fetch(url, { signal, redirect: 'follow' });
    clearTimeout(connectTimer);
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    return Buffer.from(await res.arrayBuffer());
  } catch (err) {
    const reason = err instanceof Error ? ((err.cause as Error | undefined)?.message ?? err.message) : String(err);
    throw new Error(`could not download ${url}: ${reason}`, { cause: err });
  } finally {
    clearTimeout(connectTimer);
  }
}

/** The SHA-256 the checksums file gives for `file` (lines of `<hex>  <name>`). */
export function expectedChecksum(checksums: string, file: string): string {
  for (const line of checksums.split('\n')) {
    const m = /^([0-9a-fA-F]{64})\s+\*?(\S+)\s*$/.exec(line.trim());
    if (m && m[2] === file) return m[1].toLowerCase();
  }
  throw new Error(`the checksums file does not list ${file}`);
}

/**
 * Downloads the release archive for this platform, refuses it unless its SHA-256 is the one the
 * release's checksums file lists, and puts its `temporal` binary at `<cacheDir>/temporal` (replaced
 * in one rename, so a reader never sees half a file). Returns that path.
 */
export async function installReleaseBinary(
  source: ReleaseSource,
  cacheDir: string,
  platform: NodeJS.Platform = process.platform,
  arch: string = process.arch,
): Promise<string> {
  const archive = releaseArchiveName(source.version, platform, arch);
  if (!archive) throw new Error(`no release archive for ${platform}/${arch}`);
  const base = source.baseUrl.endsWith('/') ? source.baseUrl : `${source.baseUrl}/`;
  const checksums = (await download(base + checksumsFileName(source.version), source)).toString('utf8');
  const expected = expectedChecksum(checksums, archive);
  const bytes = await download(base + archive, source);
  const actual = createHash('sha256').update(bytes).digest('hex');
  if (actual !== expected) throw new Error(`${archive} has SHA-256 ${actual}, the release lists ${expected}: refused`);

  mkdirSync(cacheDir, { recursive: true });
  const work = mkdtempSync(path.join(cacheDir, '.download-'));
  try {
    writeFileSync(path.join(work, archive), bytes);
    execFileSync('tar', ['-xzf', archive, 'temporal'], { cwd: work, stdio: ['ignore', 'ignore', 'pipe'] });
    const binary = path.join(work, 'temporal');
    if (!existsSync(binary)) throw new Error(`${archive} holds no temporal binary`);
    chmodSync(binary, 0o755);
    const said = execFileSync(binary, ['--version'], { encoding: 'utf8', timeout: 30_000 });
    if (!said.includes(source.version)) throw new Error(`the downloaded binary says "${said.trim()}", not version ${source.version}`);
    const target = path.join(cacheDir, 'temporal');
    renameSync(binary, target);
    return target;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
