import { withinTeam } from '../../shared/db/team-wall';
import { searchQuery } from '../../shared/domain/search/schema';
import { search } from '../../shared/domain/search/service';
import { SEARCH_SOURCES, trigramIndex, trigramText } from '../../shared/domain/search/sources';
import { planOf, withoutSequentialScans } from '../support/query-plan';
import { insertApiKey, insertTransactions } from '../support/fixtures';
import { trpcAs, trpcError } from '../support/trpc';
import { withTwoTeams } from '../support/two-teams';
import type { UntypedJson } from '../support/untyped-json';

const { ctx, send } = withTwoTeams();

const ids: Record<string, string> = {};
const hits = async (query: string, token = ctx.acme.sessionToken) => {
  const res = await send('GET', `/search?${query}`, token);
  expect(res.status).toBe(200);
  return (await res.json()).data as UntypedJson[];
};
const found = (list: UntypedJson[]) => list.map((h) => `${h.type}:${h.id}`);

beforeAll(async () => {
  const db = ctx.tdb.db;
  const teamId = ctx.acme.team.id;
  await insertTransactions(db, teamId, 30); // noise: "Merchant n"
  const [tx] = await db('transactions')
    .insert({
      teamId,
      date: '2026-05-04',
      name: 'Figma Inc',
      note: 'annual design tools',
      amount: -49.99,
      currency: 'EUR',
      providerTransactionId: 'search-1',
    })
    .returning('id');
  ids.transaction = tx.id;
  const [xss] = await db('transactions')
    .insert({
      teamId,
      date: '2026-05-05',
      name: '<img src=x onerror=alert(1)> Zanzibar',
      amount: -3,
      currency: 'EUR',
      providerTransactionId: 'search-2',
    })
    .returning('id');
  ids.xss = xss.id;
  const [customer] = await db('customers')
    .insert({ teamId, name: 'Globex Corporation', email: 'ap@globex.example', city: 'Springfield' })
    .returning('id');
  ids.customer = customer.id;
  const [invoice] = await db('invoices')
    .insert({ teamId, customerId: customer.id, invoiceNumber: 'INV-2042', currency: 'EUR', amount: 49.99, issueDate: '2026-05-01' })
    .returning('id');
  ids.invoice = invoice.id;
  const [doc] = await db('documents')
    .insert({
      teamId,
      name: 'lease.pdf',
      storageKey: 'k/lease.pdf',
      mimeType: 'application/pdf',
      size: 1000,
      sha256: 'a'.repeat(64),
      // Past the first 8,000 characters, where snippets used to stop looking.
      content: `${'Preamble words. '.repeat(700)}This lease agreement covers the office at Baker Street for twelve months.`,
    })
    .returning('id');
  ids.document = doc.id;
  const [inbox] = await db('inbox_items')
    .insert({ teamId, source: 'email', reference: 'r1', displayName: 'Figma', amount: 49.99, currency: 'EUR', date: '2026-05-04' })
    .returning('id');
  ids.inbox = inbox.id;
  const [project] = await db('tracker_projects').insert({ teamId, name: 'Website redesign', description: 'for Globex' }).returning('id');
  ids.project = project.id;
  // The other team has the same words: never in Acme's results.
  await db('transactions').insert({
    teamId: ctx.other.team.id,
    date: '2026-05-04',
    name: 'Figma Inc',
    amount: -49.99,
    currency: 'EUR',
    providerTransactionId: 'search-other',
  });
  await db('customers').insert({ teamId: ctx.other.team.id, name: 'Globex Corporation' });
});

describe('GET /search', () => {
  it('finds words across kinds, ranked, with a highlighted snippet, only in the caller’s team', async () => {
    const figma = await hits('q=figma');
    expect(found(figma).sort()).toEqual([`inbox:${ids.inbox}`, `transaction:${ids.transaction}`].sort());
    const tx = figma.find((h) => h.type === 'transaction')!;
    expect(tx).toMatchObject({ title: 'Figma Inc', date: '2026-05-04', amount: -49.99, currency: 'EUR' });
    expect(tx.snippet).toContain('<mark>Figma</mark>');
    expect(tx.rank).toBeGreaterThan(0);
    expect(figma.map((h) => h.rank)).toEqual([...figma.map((h) => h.rank)].sort((a, b) => b - a));

    const globex = await hits('q=globex');
    expect(found(globex)).toEqual(expect.arrayContaining([`customer:${ids.customer}`, `tracker_project:${ids.project}`]));
    expect(globex.filter((h) => h.type === 'customer')).toHaveLength(1);
  });

  it('finds a partial name, an exact amount of either sign, and words deep in a document’s text', async () => {
    expect(found(await hits('q=figm'))).toEqual(expect.arrayContaining([`transaction:${ids.transaction}`, `inbox:${ids.inbox}`]));
    const partial = (await hits('q=figm')).find((h) => h.type === 'transaction')!;
    expect(partial.snippet).toContain('<mark>Figm</mark>a');

    const byAmount = await hits('q=49.99');
    expect(found(byAmount).sort()).toEqual([`inbox:${ids.inbox}`, `invoice:${ids.invoice}`, `transaction:${ids.transaction}`].sort());
    expect(byAmount.find((h) => h.type === 'invoice')).toMatchObject({ title: 'Invoice INV-2042', amount: 49.99, date: '2026-05-01' });

    const lease = await hits(`q=${encodeURIComponent('"baker street"')}`);
    expect(found(lease)).toEqual([`document:${ids.document}`]);
    expect(lease[0].snippet).toContain('<mark>Baker</mark> <mark>Street</mark>');
    expect(lease[0].snippet.length).toBeLessThan(400); // a fragment, not the whole text
    const twelve = await hits('q=twelve+months');
    expect(twelve.find((h) => h.type === 'document')?.snippet).toContain('<mark>twelve</mark> <mark>months</mark>');
  });

  it('finds a quoted phrase in document text through its shingles, only where its words stand together (migration 0076)', async () => {
    const db = ctx.tdb.db;
    const [apart] = await db('documents')
      .insert({
        teamId: ctx.acme.team.id,
        name: 'notes.pdf',
        storageKey: 'k/notes.pdf',
        mimeType: 'application/pdf',
        size: 1000,
        sha256: 'b'.repeat(64),
        content: 'The street where Mr Baker lives has an agreement that covers the lease.',
      })
      .returning('id');
    try {
      const q = async (text: string) => found(await hits(`type=document&q=${encodeURIComponent(text)}`)).sort();
      expect(await q('"baker street"')).toEqual([`document:${ids.document}`]);
      expect(await q('"lease agreement covers the office"')).toEqual([`document:${ids.document}`]);
      expect(await q('baker street')).toEqual([`document:${ids.document}`, `document:${apart.id}`].sort());
      // Not narrowed where a document may match without the phrase.
      expect(await q('"baker street" or lives')).toEqual([`document:${ids.document}`, `document:${apart.id}`].sort());
      expect(await q('lease -"baker street"')).toEqual([`document:${apart.id}`]);

      const { rows } = await db.raw<{ rows: { pair: string | null; one: string | null; odd: string | null }[] }>(
        `select phrase_shingles_query('Baker Street, London')::text as pair, phrase_shingles_query('Baker')::text as one,
                phrase_shingles_query($$it's a \\ 'quoted' test$$)::text as odd`,
      );
      expect(rows[0].pair).toBe(`'baker street' & 'baker street london' & 'street london'`);
      expect(rows[0].one).toBeNull();
      expect(rows[0].odd).toContain(`'it s'`);
      const plan = await withoutSequentialScans(db, (trx) =>
        planOf(trx, `select id from documents where search_shingles @@ phrase_shingles_query('baker street')`),
      );
      expect(plan).toContain('documents_search_shingles_idx');
    } finally {
      await db('documents').where({ id: apart.id }).delete();
    }
  });

  it('filters by type, escapes stored text, and limits', async () => {
    expect(found(await hits('q=globex&type=tracker_project'))).toEqual([`tracker_project:${ids.project}`]);
    expect((await hits('q=figma&type=inbox,customer')).map((h) => h.type)).toEqual(['inbox']);
    const xss = await hits('q=zanzibar');
    expect(found(xss)).toEqual([`transaction:${ids.xss}`]);
    // Stored text is escaped: the only tags are our <mark>s.
    expect(xss[0].snippet.replace(/<\/?mark>/g, '')).not.toMatch(/[<>]/);
    expect(xss[0].snippet).toContain('&#62; <mark>Zanzibar</mark>');
    expect(await hits('q=merchant&limit=5')).toHaveLength(5);
  });

  it('shows each kind only with its read scope; 403 for a kind asked for without it, 400 for bad input', async () => {
    const db = ctx.tdb.db;
    const owner = { teamId: ctx.acme.team.id, userId: ctx.acme.user.id };
    const txOnly = await insertApiKey(db, owner, ['search.read', 'transactions.read']);
    expect((await hits('q=49.99', txOnly)).map((h) => h.type)).toEqual(['transaction']);
    expect((await send('GET', '/search?q=49.99&type=invoice', txOnly)).status).toBe(403);
    const noSearch = await insertApiKey(db, owner, ['transactions.read']);
    expect((await send('GET', '/search?q=figma', noSearch)).status).toBe(403);

    for (const bad of ['', 'q=', `q=${'x'.repeat(201)}`, 'q=a&limit=0', 'q=a&limit=51', 'q=a&type=planet']) {
      const res = await send('GET', `/search?${bad}`, ctx.acme.sessionToken);
      expect(res.status).toBe(400);
      expect((await res.json()).details.length).toBeGreaterThan(0);
    }
    // Query syntax a user may type never fails.
    for (const odd of ['"unclosed', '-', 'or or', '!!!', "o'brien", '%_\\']) {
      expect((await send('GET', `/search?q=${encodeURIComponent(odd)}`, ctx.acme.sessionToken)).status).toBe(200);
    }
  });

  it('serves the same over the typed tRPC client', async () => {
    const trpc = trpcAs(ctx.api, ctx.acme.sessionToken);
    const result = await trpc.search.query.query({ q: 'globex', type: ['customer'] });
    expect(result.map((h) => h.id)).toEqual([ids.customer]);
    expect((await trpcError(trpc.search.query.query({ q: '' }))).httpStatus).toBe(400);
    const owner = { teamId: ctx.acme.team.id, userId: ctx.acme.user.id };
    const noSearch = trpcAs(ctx.api, await insertApiKey(ctx.tdb.db, owner, ['transactions.read']));
    expect(await trpcError(noSearch.search.query.query({ q: 'globex' }))).toMatchObject({ httpStatus: 403, error: 'Forbidden' });
    // A kind asked for by name without its read scope is refused, not silently left out.
    const txOnly = trpcAs(ctx.api, await insertApiKey(ctx.tdb.db, owner, ['search.read', 'transactions.read']));
    expect(await trpcError(txOnly.search.query.query({ q: 'globex', type: ['customer'] }))).toMatchObject({
      httpStatus: 403,
      description: expect.stringContaining('customers.read'),
    });
  });

  it('reads every kind through its indexes (the words function or column and the trigram text match migrations 0056, 0062 and 0080)', async () => {
    await withoutSequentialScans(ctx.tdb.db, async (trx) => {
      // With sequential scans off, visiting every row of these tiny tables through the customers' sort
      // index (team_id, name, id) costs less than any lookup; the question here is whether each search
      // condition has an index of its own, so that one is set aside (the transaction rolls back).
      await trx.raw('drop index customers_team_name_id_idx');
      for (const s of SEARCH_SOURCES) {
        // A GIN index serves a condition on any of its columns: each condition alone must find its index.
        const words = s.vector ? `x.${s.vector}` : `search_words_${s.table}(${s.columns.map((c) => `x.${c}`).join(', ')})`;
        const plan = (condition: string) => planOf(trx, `select x.id from ${s.table} x where ${condition}`);
        expect(await plan(`${words} @@ websearch_to_tsquery('simple', 'figma')`)).toContain(`${s.table}_search_idx`);
        expect(await plan(`'figma' <% ${trigramText(s, 'x')}`)).toContain(trigramIndex(s));
      }
    });
  });

  it('keeps the pending lists short on the indexes of kinds written rarely, which every search reads whole (migration 0077)', async () => {
    const { rows } = await ctx.tdb.db.raw<{ rows: { index: string; options: string[] | null }[] }>(
      `select c.relname as index, c.reloptions as options from pg_class c join pg_index i on i.indexrelid = c.oid
        where c.relname = any(?)`,
      [SEARCH_SOURCES.flatMap((s) => [`${s.table}_search_idx`, trigramIndex(s)])],
    );
    expect(rows).toHaveLength(SEARCH_SOURCES.length * 2);
    for (const { index, options } of rows) {
      // Transactions arrive thousands at a time (syncs, imports): their inserts need the long list.
      if (index.startsWith('transactions_')) expect(options).toBeNull();
      else expect(options).toEqual(['gin_pending_list_limit=256']);
    }
  });

  // Row-level security evaluates its policy before any operator not known to be leakproof (`@@`, `<%`),
  // so inside the wall those indexes go unused and a search reads every row of the team.
  it('runs its query outside the team wall, whose policy would keep its indexes unused, naming the team in every candidate subquery', async () => {
    const db = ctx.tdb.db;
    const queries: { sql: string; bindings: unknown[]; connection: unknown }[] = [];
    const listen = (q: { sql: string; bindings?: unknown[]; __knexUid: unknown }) =>
      queries.push({ sql: q.sql, bindings: q.bindings ?? [], connection: q.__knexUid });
    db.on('query', listen);
    try {
      const principal = { kind: 'session' as const, userId: ctx.acme.user.id, teamId: ctx.acme.team.id, scopes: ['apis.all' as const] };
      const found = await withinTeam(ctx.acme.team.id, async () => {
        await db('transactions').where({ teamId: ctx.acme.team.id }).first(); // the request's connection, switched into the wall
        return search(db, principal, searchQuery.parse({ q: 'figma' }));
      });
      expect(found.map((h) => h.id)).toEqual(expect.arrayContaining([ids.transaction, ids.inbox]));
    } finally {
      db.removeListener('query', listen);
    }
    const searched = queries.find((q) => q.sql.includes('websearch_to_tsquery'))!;
    const lastSwitch = queries.filter((q) => q.connection === searched.connection && q.sql.includes("set_config('role'")).at(-1);
    expect(lastSwitch?.bindings[0]).toBe('none');
    // Each kind's two candidate subqueries (words, name trigrams) name the caller's team.
    expect(searched.sql.match(/c\.team_id = \$\d+/g)).toHaveLength(SEARCH_SOURCES.length * 2);
    expect(searched.bindings.filter((b) => b === ctx.acme.team.id)).toHaveLength(SEARCH_SOURCES.length * 2);
  });
});
