/** Polls `check` until it holds, or fails after `timeoutMs`. */
export async function eventually(check: () => Promise<boolean>, timeoutMs: number, what = 'condition'): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${what} not met within ${timeoutMs} ms`);
}

/** Polls `read` until it returns a value (not undefined), and returns it; fails after `timeoutMs`. */
export async function eventuallyValue<T>(read: () => Promise<T | undefined>, timeoutMs: number, what = 'value'): Promise<T> {
  let value: T | undefined;
  await eventually(async () => (value = await read()) !== undefined, timeoutMs, what);
  return value as T;
}
