/**
 * A bench's entry point: runs `main`, then exits (with any exit code it set), so a handle left open
 * (a pool, a client, a keep-alive socket) never holds `npm run bench`; a throw is printed and exits 1.
 */
export function runMain(main: () => Promise<unknown>): void {
  main().then(
    () => process.exit(),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}
