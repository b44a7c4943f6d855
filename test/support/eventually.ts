/** Polls `check` until it holds, or fails after `timeoutMs`. */
export async function eventually(check: () => Promise<boolean>, timeoutMs: number, what = 'condition'): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${what} not met within ${timeoutMs} ms`);
}
