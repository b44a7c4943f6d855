import type { Db } from '../../db/knex';
import { outsideTheWall } from '../../db/team-wall';
import { forbidden } from '../../errors';
import type { Principal } from '../auth/principal';
import { hasScopes } from '../auth/scopes';
import type { SearchHit, SearchQuery } from './schema';
import { SEARCH_SOURCES, trigramText, type SearchSource } from './sources';
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

/**
 * The quoted phrases every match must hold (websearch syntax), for a kind that narrows phrases by
 * their shingles. None when the query could match without them: a phrase negated (`-"…"`), or any
 * `or` in the query, which may stand between a phrase and an alternative.
 */
export function requiredPhrases(q: string): string[] {
  // Between quotes at odd indexes; an unclosed last quote opens no phrase here.
  const parts = q.split('"');
  const closed = parts.length % 2 ? parts.length : parts.length - 1;
  if (parts.some((part, i) => i % 2 === 0 && /(^|\s)or(\s|$)/i.test(part))) return [];
  const phrases: string[] = [];
  for (let i = 1; i < closed; i += 2) if (!parts[i - 1].endsWith('-') && parts[i].trim()) phrases.push(parts[i]);
  return phrases;
}

/**
 * Matches ranked per kind and way of matching. A query that matches fewer has every match ranked; one
 * that matches more (a word in every transaction) ranks its newest, and the best twenty of the newest
 * 200 serve as well as of the newest 1,000. Ranking recomputes each candidate's words, so this bounds
 * the slowest queries (a common word over many documents).
 */
const CANDIDATES = 200;
/** How far into a long text a snippet looks for the query: a match further on still ranks the hit. */
const ANCHOR_CHARS = 100_000;
/**
 * The text a snippet is made from: this much, from a little before the query's first occurrence.
 * ts_headline's cost grows with its text, and a phrase's far faster, so it gets no more than it needs:
 * a snippet of 24 words needs a few hundred characters.
 */
const SNIPPET_CHARS = 600;
const SNIPPET_LEAD = 150;

// Matched words come back between two control characters, escaped and turned into <mark> in JS.
const HEADLINE = `StartSel=${OPEN}, StopSel=${CLOSE}, MaxWords=24, MinWords=10, MaxFragments=1, FragmentDelimiter=" … "`;

/**
 * One ranked query across every kind the caller may read: per kind, the best `limit` by full-text
 * rank plus name similarity (and an exact amount, when the query is one), then the best `limit` of
 * all; snippets are made (and their text read) for those only.
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
  const phrases = requiredPhrases(query.q);
  // In the order of the placeholders: the query, the headline options, each branch's, the limit.
  const bindings: (string | number | null)[] = [query.q, query.q, amount, snippetAnchor(query.q, phrases), HEADLINE];
  const bind: Bind = (value) => {
    bindings.push(value);
    return '?';
  };
  const branches = sources.map((s) => branch(s, { q: query.q, phrases, amount, teamId: principal.teamId, limit: query.limit }, bind));
  bindings.push(query.limit);
  // Every candidate subquery names the team (a snippet's text is read by the id of a hit it found);
  // the wall would keep the words and trigram indexes unused.
  const { rows } = await outsideTheWall(() =>
    db.raw<{ rows: Row[] }>(
      `with q as (select websearch_to_tsquery('simple', ?) as tsq, ?::text as raw, ?::numeric as num, ?::text as anchor)
     select h.type, h.id, h.title, h.date, h.amount, h.currency, h.rank,
            ts_headline('simple', case h.type ${sources.map((s) => `when '${s.type}' then ${snippetText(s)}`).join(' ')} end, q.tsq, ?) as snippet
       from (select * from (${branches.join(' union all ')}) b order by b.rank desc, b.date desc nulls last, b.id limit ?) h, q
      order by h.rank desc, h.date desc nulls last, h.id`,
      bindings,
    ),
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

/**
 * One kind's best hits. Candidates come from up to three index-friendly subqueries (words, name
 * trigrams, exact amount), each the newest CANDIDATES matches, with the query as a constant so the
 * planner knows how common its words are: a rare word reads the GIN index, a word in every row walks
 * the (team, date) index and stops at CANDIDATES; a bitmap of a million matches is never built. Only
 * the candidates are ranked. `bind` adds a placeholder's value in text order.
 */
function branch(
  s: SearchSource,
  query: { q: string; phrases: string[]; amount: number | null; teamId: string; limit: number },
  bind: Bind,
): string {
  const words = (alias: string) =>
    s.vector ? `${alias}.${s.vector}` : `search_words_${s.table}(${s.columns.map((c) => `${alias}.${c}`).join(', ')})`;
  const candidates = (condition: () => string) =>
    `(select c.id from ${s.table} c where c.team_id = ${bind(query.teamId)} and ${condition()}${s.where ? ` and ${s.where.replaceAll('x.', 'c.')}` : ''}
       ${s.recent ? `order by ${s.recent.replaceAll('x.', 'c.')} desc ` : ''}limit ${CANDIDATES})`;
  const subqueries = [
    candidates(() => `${words('c')} @@ websearch_to_tsquery('simple', ${bind(query.q)})${phrasesIn(s, query.phrases, bind)}`),
    candidates(() => `${bind(query.q)} <% ${trigramText(s, 'c')}`),
  ];
  const amountColumn = query.amount === null ? null : s.amount;
  if (amountColumn) {
    subqueries.push(
      candidates(() => `${amountColumn.replace('x.', 'c.')} in (${bind(query.amount)}::numeric, -${bind(query.amount)}::numeric)`),
    );
  }
  const amountHit = amountColumn ? `${amountColumn} in (q.num, -q.num)` : null;
  const rank = [
    `ts_rank(${words('x')}, q.tsq)`,
    `coalesce(word_similarity(q.raw, x.${s.name}), 0)`,
    amountHit && `(case when ${amountHit} then 1 else 0 end)`,
  ]
    .filter(Boolean)
    .join(' + ');
  return `(select '${s.type}'::text as type, x.id, ${s.title} as title, (${s.date})::text as date,
             ${s.amount ?? 'null::numeric'} as amount, ${s.currency ?? 'null::text'}::text as currency, ${rank} as rank
        from (${subqueries.join(' union ')}) hit join ${s.table} x on x.id = hit.id, q
       order by rank desc
       limit ${bind(query.limit)})`;
}

type Bind = (value: string | number | null) => string;

/**
 * Narrows a kind's candidates to rows holding each phrase's shingles (a phrase of one word has
 * none: null, no narrowing). The phrase is a constant to the planner, which computes its query once.
 */
function phrasesIn(s: SearchSource, phrases: string[], bind: Bind): string {
  if (!s.shingles) return '';
  return phrases
    .map((p) => ` and (phrase_shingles_query(${bind(p)}) is null or c.${s.shingles} @@ phrase_shingles_query(${bind(p)}))`)
    .join('');
}

/**
 * The snippet's text, read for the hits shown only (after the final limit: read for every ranked
 * candidate, it fetched and decompressed a thousand documents' text to show ten): every searched
 * column, from a little before the first occurrence of the query's anchor in their first
 * ANCHOR_CHARS, else from the start. A match far into a long text is shown where it is.
 */
function snippetText(s: SearchSource): string {
  const text = `concat_ws(' ', ${s.columns.map((c) => `left(x.${c}, ${ANCHOR_CHARS})`).join(', ')})`;
  return `(select substr(t.text, greatest(strpos(lower(t.text), q.anchor) - ${SNIPPET_LEAD}, 1), ${SNIPPET_CHARS})
             from (select ${text} as text from ${s.table} x where x.id = h.id) t)`;
}

/**
 * Where a snippet starts looking: the first phrase every match holds, else the query's longest word
 * (rarer than short ones), lower-cased as the text is searched. Empty (the start of the text) when
 * the query has no word to look for.
 */
export function snippetAnchor(q: string, phrases: string[]): string {
  if (phrases.length) return phrases[0].trim().replace(/\s+/g, ' ').toLowerCase();
  const words = q
    .split(/\s+/)
    .filter((w) => !w.startsWith('-') && !/^or$/i.test(w))
    .map((w) => w.replace(/["()]/g, ''));
  return words.reduce((longest, w) => (w.length > longest.length ? w : longest), '').toLowerCase();
}
