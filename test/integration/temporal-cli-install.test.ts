import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { installTemporalCli, TEMPORAL_CLI_VERSION } from '../../scripts/lib/temporal-cli';
import { checksumsFileName, releaseArchiveName } from '../../scripts/lib/temporal-cli-release';

const VERSION = TEMPORAL_CLI_VERSION.replace(/^v/, '');
const ARCHIVE = releaseArchiveName(VERSION, 'linux', 'x64')!;

/** A release as GitHub serves it: the archive behind a redirect, and the checksums file. */
interface FakeRelease {
  baseUrl: string;
  requests: string[];
  close(): Promise<void>;
}

async function serveRelease(files: Record<string, Buffer>): Promise<FakeRelease> {
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    requests.push(req.url!);
    const name = req.url!.replace(/^\/(download|objects)\//, '');
    if (req.url!.startsWith('/download/') && name.endsWith('.tar.gz')) {
      res.writeHead(302, { location: `/objects/${name}` }).end();
      return;
    }
    const body = files[name];
    if (!body) res.writeHead(404).end();
    else res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/download/`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

let work: string;
let tarball: Buffer;
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const checksums = (archiveSha: string) =>
  Buffer.from(
    [
      `${'a'.repeat(64)}  temporal_cli_${VERSION}_darwin_arm64.tar.gz`,
      `${archiveSha}  ${ARCHIVE}`,
      `${'b'.repeat(64)}  temporal_cli_${VERSION}_windows_amd64.zip`,
      '',
    ].join('\n'),
  );

/** Stands in for `go install`: records that it ran and leaves a binary of its own. */
function fakeBuilder() {
  const calls: string[] = [];
  const build = (_log: (m: string) => void, cacheDir: string) => {
    calls.push(cacheDir);
    const target = path.join(cacheDir, 'temporal');
    writeFileSync(target, '#!/bin/sh\necho "temporal version built from source"\n', { mode: 0o755 });
    return target;
  };
  return { calls, build };
}

beforeAll(() => {
  work = mkdtempSync(path.join(os.tmpdir(), 'temporal-cli-install-'));
  const release = path.join(work, 'release');
  execFileSync('mkdir', ['-p', release]);
  writeFileSync(path.join(release, 'temporal'), `#!/bin/sh\necho "temporal version ${VERSION} (fake release)"\n`, { mode: 0o755 });
  writeFileSync(path.join(release, 'LICENSE'), 'MIT\n');
  execFileSync('tar', ['-czf', ARCHIVE, 'temporal', 'LICENSE'], { cwd: release });
  tarball = readFileSync(path.join(release, ARCHIVE));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

const freshCache = () => mkdtempSync(path.join(work, 'cache-'));
/** An install as on a linux x64 machine, from `baseUrl`, building with `builder` and logging into `log`. */
const installOnLinux = (baseUrl: string, cacheDir: string, builder: ReturnType<typeof fakeBuilder>, log: string[]) =>
  installTemporalCli({ baseUrl, cacheDir, platform: 'linux', arch: 'x64', build: builder.build, log: (m) => log.push(m) });
const run = (binary: string) => execFileSync(binary, ['--version'], { encoding: 'utf8' }).trim();

describe('installing the Temporal CLI', () => {
  it('downloads the release binary, checks its SHA-256 and installs it, executable, without building', async () => {
    const release = await serveRelease({ [ARCHIVE]: tarball, [checksumsFileName(VERSION)]: checksums(sha256(tarball)) });
    try {
      const cacheDir = freshCache();
      const builder = fakeBuilder();
      const log: string[] = [];
      const installed = await installOnLinux(release.baseUrl, cacheDir, builder, log);
      expect(installed).toBe(path.join(cacheDir, 'temporal'));
      expect(statSync(installed).mode & 0o111).not.toBe(0);
      expect(run(installed)).toBe(`temporal version ${VERSION} (fake release)`);
      expect(builder.calls).toEqual([]);
      expect(release.requests).toEqual([`/download/${checksumsFileName(VERSION)}`, `/download/${ARCHIVE}`, `/objects/${ARCHIVE}`]);
      // Only the binary is left: no archive, no temporary folder, not the archive's other files.
      expect(readdirSync(cacheDir)).toEqual(['temporal']);
      expect(log.join('\n')).toContain('Installed the Temporal CLI release binary');

      // Cached: used as it is, neither downloaded nor built again.
      const again = await installTemporalCli({ baseUrl: release.baseUrl, cacheDir, build: builder.build, log: () => undefined });
      expect(again).toBe(installed);
      expect(release.requests).toHaveLength(3);
      expect(builder.calls).toEqual([]);
    } finally {
      await release.close();
    }
  });

  it('refuses an archive whose checksum does not match, and builds from source instead', async () => {
    const tampered = Buffer.concat([tarball, Buffer.from([0])]);
    const release = await serveRelease({ [ARCHIVE]: tampered, [checksumsFileName(VERSION)]: checksums(sha256(tarball)) });
    try {
      const cacheDir = freshCache();
      const builder = fakeBuilder();
      const log: string[] = [];
      const installed = await installOnLinux(release.baseUrl, cacheDir, builder, log);
      expect(log.join('\n')).toContain(`${ARCHIVE} has SHA-256 ${sha256(tampered)}, the release lists ${sha256(tarball)}: refused`);
      expect(builder.calls).toEqual([cacheDir]);
      expect(run(installed)).toBe('temporal version built from source');
      expect(readdirSync(cacheDir)).toEqual(['temporal']);
    } finally {
      await release.close();
    }
  });

  it('builds from source when the checksums file does not list the archive', async () => {
    const release = await serveRelease({
      [ARCHIVE]: tarball,
      [checksumsFileName(VERSION)]: Buffer.from(`${sha256(tarball)}  other.tar.gz\n`),
    });
    try {
      const builder = fakeBuilder();
      const log: string[] = [];
      await installTemporalCli({
        baseUrl: release.baseUrl,
        cacheDir: freshCache(),
        platform: 'linux',
        arch: 'x64',
        build: builder.build,
        log: (m) => log.push(m),
      });
      expect(log.join('\n')).toContain(`the checksums file does not list ${ARCHIVE}`);
      expect(builder.calls).toHaveLength(1);
      // Nothing unverified was fetched.
      expect(release.requests).toEqual([`/download/${checksumsFileName(VERSION)}`]);
    } finally {
      await release.close();
    }
  });

  it('falls back to building, quickly, when the release cannot be reached', async () => {
    // A port nobody listens on (refused at once), and a server that accepts and never answers (the connect timeout).
    const closed = net.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const silent = net.createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      for (const baseUrl of [`http://127.0.0.1:${closedPort}/`, `http://127.0.0.1:${(silent.address() as AddressInfo).port}/`]) {
        const cacheDir = freshCache();
        const builder = fakeBuilder();
        const log: string[] = [];
        const started = Date.now();
        const installed = await installTemporalCli({
          baseUrl,
          cacheDir,
          platform: 'linux',
          arch: 'x64',
          connectTimeoutMs: 500,
          build: builder.build,
          log: (m) => log.push(m),
        });
        expect(Date.now() - started).toBeLessThan(5_000);
        expect(log.join('\n')).toContain(`could not download ${baseUrl}${checksumsFileName(VERSION)}`);
        expect(builder.calls).toEqual([cacheDir]);
        expect(run(installed)).toBe('temporal version built from source');
      }
    } finally {
      silent.close();
    }
  });

  it('names the archive for each platform, and builds where there is no tarball', async () => {
    expect(releaseArchiveName('1.5.1', 'linux', 'x64')).toBe('temporal_cli_1.5.1_linux_amd64.tar.gz');
    expect(releaseArchiveName('1.5.1', 'linux', 'arm64')).toBe('temporal_cli_1.5.1_linux_arm64.tar.gz');
    expect(releaseArchiveName('1.5.1', 'darwin', 'arm64')).toBe('temporal_cli_1.5.1_darwin_arm64.tar.gz');
    expect(releaseArchiveName('1.5.1', 'darwin', 'x64')).toBe('temporal_cli_1.5.1_darwin_amd64.tar.gz');
    expect(releaseArchiveName('1.5.1', 'win32', 'x64')).toBeUndefined();
    const builder = fakeBuilder();
    const cacheDir = freshCache();
    await installTemporalCli({
      baseUrl: 'http://127.0.0.1:9/',
      cacheDir,
      platform: 'win32',
      arch: 'x64',
      build: builder.build,
      log: () => undefined,
    });
    expect(builder.calls).toEqual([cacheDir]);
    expect(existsSync(path.join(cacheDir, 'temporal'))).toBe(true);
  });
});
