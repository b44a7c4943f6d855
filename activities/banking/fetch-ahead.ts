/**
 * A provider's pages, each one requested as soon as the page before it has arrived, so that it is
 * on its way while the page before is being stored: a sync costs the slower of the provider and the
 * database per page, not their sum. Never more than one page ahead, and no request the sequential
 * loop would not have made, except the one page in flight when storing fails.
 *
 * `next` says how to ask for the page after one (undefined: it was the last). A consumer that stops
 * early leaves that request to settle on its own; its failure, if any, is nobody's to report.
 */
export async function* fetchedAhead<P>(first: Promise<P>, next: (page: P) => Promise<P> | undefined): AsyncGenerator<P> {
  let coming: Promise<P> | undefined = first;
  while (coming) {
    const page: P = await coming;
    coming = next(page);
    coming?.catch(() => undefined);
    yield page;
  }
}
