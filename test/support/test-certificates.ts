import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface Issued {
  certPath: string;
  keyPath: string;
  cert: string;
  key: string;
}

export interface TestPki {
  dir: string;
  ca: Issued;
  /** A certificate for `name` (a server's SAN, or a client's CN) signed by this CA. */
  issue(name: string, use: 'serverAuth' | 'clientAuth'): Issued;
  remove(): void;
}

const openssl = (dir: string, args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });

const read = (dir: string, name: string): Issued => ({
  certPath: path.join(dir, `${name}.crt`),
  keyPath: path.join(dir, `${name}.key`),
  cert: readFileSync(path.join(dir, `${name}.crt`), 'utf8'),
  key: readFileSync(path.join(dir, `${name}.key`), 'utf8'),
});

/** A throwaway CA made with the openssl CLI, valid for a day: P-256 keys in PKCS#8, as both TLS stacks accept. */
export function createTestPki(label: string): TestPki {
  const dir = mkdtempSync(path.join(os.tmpdir(), `pki-${label}-`));
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  openssl(dir, [
    'req',
    '-x509',
    ...ec,
    '-keyout',
    'ca.key',
    '-out',
    'ca.crt',
    '-days',
    '1',
    '-subj',
    `/CN=${label} test CA`,
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign',
  ]);
  let serial = 0;
  return {
    dir,
    ca: read(dir, 'ca'),
    issue(name, use) {
      serial += 1;
      const file = `leaf-${serial}`;
      writeFileSync(
        path.join(dir, `${file}.ext`),
        [
          'basicConstraints=CA:FALSE',
          'keyUsage=critical,digitalSignature',
          `extendedKeyUsage=${use}`,
          ...(use === 'serverAuth' ? [`subjectAltName=DNS:${name}`] : []),
        ].join('\n'),
      );
      openssl(dir, ['req', ...ec, '-keyout', `${file}.key`, '-out', `${file}.csr`, '-subj', `/CN=${name}`]);
      openssl(dir, [
        'x509',
        '-req',
        '-in',
        `${file}.csr`,
        '-CA',
        'ca.crt',
        '-CAkey',
        'ca.key',
        '-set_serial',
        String(serial),
        '-days',
        '1',
        '-out',
        `${file}.crt`,
        '-extfile',
        `${file}.ext`,
      ]);
      return read(dir, file);
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
