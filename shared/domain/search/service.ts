import type { Db } from '../../db/knex';
import { forbidden } from '../../errors';
import type { Principal } from '../auth/principal';
import { hasScopes } from '../auth/scopes';
import type { SearchHit, SearchQuery } from './schema';
import { SEARCH_SOURCES, type SearchSource } from './sources';
import { highlighted, OPEN, CLOSE } from './snippet';

/** "49.99", "-1,250.00", "12,50": an amount to match exactly (either sign); anything else is words only. */
export function amountIn(q: string): number | null {
  const s = q.trim();
  let n: string | null = null;
  if (/^-?\d{1,3}(,\d{3})+(\.\d+)?$/.test(s)) n = s.replace(/,/g, '');
  else if (/^-?\d+(\.\d+)?$/.test(s)) n = s;
  else if (/^-?\d+,\d{1,2}$/.test(s)) n = s.replace(',', '.');
  return n === null ? null : Math.abs(Number(n));
}

// Matched words come back between two control characters, escaped and turned into <mark> in JS.
const HEADLINE = `StartSel=${OPEN}, StopSel=${CLOSE}, MaxWords=24, MinWords=10, MaxFragments=1, FragmentDelimiter=" … "`;

/**
 * One ranked query across every kind the caller may read: per kind, the best `limit` by full-text
 * rank plus name similarity (and an exact amount, when the query is one), then the best `limit` of
 * all; snippets are made for those only.
 */
export async function search(db: Db, principal: Principal, query: SearchQuery): Promise<SearchHit[]> {
  const asked = query.type ?? SEARCH_SOURCES.map((s) => s.type);
  const refused = SEARCH_SOURCES.filter((s) => asked.includes(s.type) && !hasScopes(principal.scopes, [s.scope]));
  if (query.type && refused.length) {
    throw forbidden(`Searching ${refused.map((s) => s.type).join(', ')} needs ${refused.map((s) => s.scope).join(', ')}`);
  }
  const sources = SEARCH_SOURCES.filter((s) => asked.includes(s.type) && !refused.includes(s));
  if (!sources.length) return [];

  const amount = amountIn(query.q);
  // In the order of the placeholders: the query, the headline options, each branch, the limit.
  const bindings: (string | number | null)[] = [query.q, query.q, amount, HEADLINE];
  const branches = sources.map((s) => {
    bindings.push(principal.teamId, query.limit);
    return branch(s, amount !== null);
  });
  bindings.push(query.limit);
  const { rows } = await db.raw<{ rows: Row[] }>(
    `with q as (select websearch_to_tsquery('simple', ?) as tsq, ?::text as raw, ?::numeric as num)
     select h.type, h.id, h.title, h.date, h.amount, h.currency, h.rank,
            ts_headline('simple', h.body, q.tsq, ?) as snippet
       from (${branches.join(' union all ')}) h, q
      order by h.rank desc, h.date desc nulls last, h.id
      limit ?`,
    bindings,
  );
  return rows.map((r) => ({
    type: r.type,
    id: r.id,
    title: r.title ?? '',
    snippet: highlighted(r.snippet, query.q),
    date: r.date,
    amount: r.amount === null ? null : Number(r.amount),
    currency: r.currency?.trim() ?? null,
    rank: Math.round(r.rank * 10_000) / 10_000,
  }));
}

interface Row {
  type: SearchHit['type'];
  id: string;
  title: string | null;
  date: string | null;
  amount: string | number | null;
  currency: string | null;
  rank: number;
  snippet: string;
}

function branch(s: SearchSource, byAmount: boolean): string {
  const words = `search_words_${s.table}(${s.columns.map((c) => `x.${c}`).join(', ')})`;
  const name = `x.${s.name}`;
  const amountHit = byAmount && s.amount ? `${s.amount} in (q.num, -q.num)` : null;
  const rank = [
    `ts_rank(${words}, q.tsq)`,
    `coalesce(word_similarity(q.raw, ${name}), 0)`,
    amountHit && `(case when ${amountHit} then 1 else 0 end)`,
  ]
    .filter(Boolean)
    .join(' + ');
  const match = [`${words} @@ q.tsq`, `q.raw <% ${name}`, amountHit].filter(Boolean).join(' or ');
  // The snippet's text: every searched column (long extracted text cut to its first 20,000 characters).
  const body = `concat_ws(' ', ${s.columns.map((c) => `left(x.${c}, 20000)`).join(', ')})`;
  return `(select '${s.type}'::text as type, x.id, ${s.title} as title, ${body} as body, (${s.date})::text as date,
             ${s.amount ?? 'null::numeric'} as amount, ${s.currency ?? 'null::text'}::text as currency, ${rank} as rank
        from ${s.table} x, q
       where x.team_id = ? and (${match})${s.where ? ` and ${s.where}` : ''}
       order by rank desc
       limit ?)`;
}
