import { readFileSync } from 'node:fs';
import path from 'node:path';
import { devServerDynamicConfigArgs, SERVER_DYNAMIC_CONFIG } from '../../shared/temporal/dev-server';
import { PROJECT_ROOT } from '../../shared/paths';

describe('Temporal server settings', () => {
  it('the cluster (docker-compose) and the dev servers run with the same dynamic config', () => {
    const file = readFileSync(path.join(PROJECT_ROOT, 'deploy', 'temporal', 'dynamicconfig', 'finops.yaml'), 'utf8');
    const inFile = [...file.matchAll(/^([\w.]+):\s*\n\s+- value: (.+)$/gm)].map(([, key, value]) => [key, JSON.parse(value) as unknown]);
    expect(Object.fromEntries(inFile)).toEqual(SERVER_DYNAMIC_CONFIG);
    const compose = readFileSync(path.join(PROJECT_ROOT, 'docker-compose.yml'), 'utf8');
    expect(compose).toContain('DYNAMIC_CONFIG_FILE_PATH: config/dynamicconfig/finops.yaml');
    expect(compose).toContain('./deploy/temporal/dynamicconfig:/etc/temporal/config/dynamicconfig');
  });

  it('a dev server gets each setting as a flag, a caller’s own on top', () => {
    expect(devServerDynamicConfigArgs({ 'system.forceSearchAttributesCacheRefreshOnRead': true })).toEqual([
      '--dynamic-config-value',
      'system.enableActivityEagerExecution=true',
      '--dynamic-config-value',
      'system.forceSearchAttributesCacheRefreshOnRead=true',
    ]);
  });
});
