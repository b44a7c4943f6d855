/**
 * Server settings our workflows are tuned for. A cluster reads them from its dynamic config file
 * (deploy/temporal/dynamicconfig/finops.yaml, which docker-compose.yml mounts); a dev server we start
 * (npm start, the tests, the benches) gets them as flags.
 *
 * Eager activity execution: a worker that schedules an activity on its own task queue, with a slot
 * free, gets the activity back in the reply to its workflow task and runs it at once, instead of
 * waiting for the matching service to hand it out. That wait comes once per activity, and a chat
 * receipt takes five activities to its suggestion (bench/receipts.ts shows the difference).
 */
export const SERVER_DYNAMIC_CONFIG: Readonly<Record<string, boolean | number | string>> = {
  'system.enableActivityEagerExecution': true,
};

/** `--dynamic-config-value` flags for `temporal server start-dev`: ours, and a caller's own on top. */
export const devServerDynamicConfigArgs = (extra: Record<string, boolean | number | string> = {}): string[] =>
  Object.entries({ ...SERVER_DYNAMIC_CONFIG, ...extra }).flatMap(([key, value]) => [
    '--dynamic-config-value',
    `${key}=${JSON.stringify(value)}`,
  ]);
