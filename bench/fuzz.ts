import { spawn } from 'node:child_process';
import path from 'node:path';
import { PROJECT_ROOT } from '../shared/paths';
import { reportFigure } from './lib/figures';
import { runMain } from './lib/run-main';

/**
 * The long run of the fuzz properties in test/e2e/fuzz.test.ts (which `npm test` runs briefly):
 * FUZZ_RUNS inputs per REST write route, tRPC mutation, webhook and form endpoint (default 300),
 * hostile values and the classes that must be a 400 (JSON nested too deep, unknown keys at any
 * depth, JSON a form endpoint cannot read). Prints the requests sent and every 5xx found with the
 * input that caused it; an answer other than the 400 a class must get fails the run too.
 */
async function main() {
  const runs = process.env.FUZZ_RUNS ?? '300';
  const started = Date.now();
  let out = '';
  const child = spawn(
    process.execPath,
    [
      '--experimental-vm-modules',
      '--disable-warning=ExperimentalWarning',
      path.join(PROJECT_ROOT, 'node_modules/jest/bin/jest.js'),
      'test/e2e/fuzz.test.ts',
      '--testTimeout=3600000',
    ],
    { cwd: PROJECT_ROOT, env: { ...process.env, FUZZ_RUNS: runs }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  const line = /FUZZ-RESULT (\{.*\})/.exec(out)?.[1];
  if (!line) {
    process.stdout.write(out);
    throw new Error(`the fuzz run ended (exit ${code}) without a result line`);
  }
  const result = JSON.parse(line) as { runs: number; seed: number; requests: number; fiveHundreds: number };
  const minutes = ((Date.now() - started) / 60_000).toFixed(1);
  console.log(
    `fuzz: ${result.requests} requests (${result.runs} inputs per operation, seed ${result.seed}) in ${minutes} min; 5xx found: ${result.fiveHundreds}`,
  );
  reportFigure({
    name: `fuzz: 5xx in ${result.requests} hostile requests`,
    value: result.fiveHundreds,
    unit: '',
    budget: { on: 'value', atMost: 0 },
  });
  const details = /fuzz found \d+ 5xx:\n([\s\S]*?)(\n\n|$)/.exec(out)?.[1];
  if (details) console.log(details);
  if (code !== 0 || result.fiveHundreds > 0) process.exitCode = 1;
}

runMain(main);
