import type { Scope } from '../auth/scopes';
import { transactionText } from '../transactions/text-filter';
import type { SearchType } from './schema';

/**
 * How each kind of result is searched: its table, the scope that lets a caller see it, the columns
 * its words come from (the same list, in the same order, as migration 0056's `search_words_<table>`
 * function and index, so the planner uses the index), the name trigrams match, and how it shows.
 */
export interface SearchSource {
  type: SearchType;
  scope: Scope;
  table: string;
  columns: readonly string[];
  name: string;
  title: string;
  date: string;
  amount: string | null;
  currency: string | null;
  /**
   * The order candidates are taken in, the newest matches first, served by an index led by team_id;
   * null for documents: a phrase rechecked against long texts must come from the words index, never
   * from walking the team's documents by date (which reads every document's text to find nothing).
   */
  recent: string | null;
  /**
   * A stored tsvector column to read instead of calling the function: documents' long text
   * (migration 0062), transactions' many rows walked and ranked (0078).
   */
  vector?: string;
  /** A stored column of its word pairs and triples (migration 0076) that narrows a quoted phrase before its words are checked. */
  shingles?: string;
  /**
   * The text the trigram index covers, when more than the name: transactions' four columns joined,
   * the one index both search's partial words and the list's `q=` read (migration 0080).
   */
  text?: string;
  /** Rows that are not results (soft-deleted). */
  where?: string;
}

export const SEARCH_SOURCES: readonly SearchSource[] = [
  {
    type: 'transaction',
    scope: 'transactions.read',
    table: 'transactions',
    columns: ['name', 'description', 'counterparty_name', 'merchant_name', 'note'],
    name: 'name',
    title: 'x.name',
    date: 'x.date',
    recent: 'x.date',
    amount: 'x.amount',
    currency: 'x.currency',
    vector: 'search_vector',
    text: transactionText('x'),
  },
  {
    type: 'customer',
    scope: 'customers.read',
    table: 'customers',
    columns: ['name', 'email', 'contact', 'city', 'vat_number', 'note'],
    name: 'name',
    title: 'x.name',
    date: 'x.created_at::date',
    recent: 'x.created_at',
    amount: null,
    currency: null,
  },
  {
    type: 'invoice',
    scope: 'invoices.read',
    table: 'invoices',
    columns: ['invoice_number', 'payment_reference', 'note'],
    name: 'invoice_number',
    title: `'Invoice ' || x.invoice_number`,
    date: 'coalesce(x.issue_date, x.created_at::date)',
    recent: 'x.created_at',
    amount: 'x.amount',
    currency: 'x.currency',
  },
  {
    type: 'document',
    scope: 'documents.read',
    table: 'documents',
    columns: ['name', 'title', 'content'],
    name: 'name',
    title: 'coalesce(x.title, x.name)',
    date: 'x.created_at::date',
    recent: null,
    amount: null,
    currency: null,
    vector: 'search_vector',
    shingles: 'search_shingles',
    where: 'x.deleted_at is null',
  },
  {
    type: 'inbox',
    scope: 'inbox.read',
    table: 'inbox_items',
    columns: ['display_name', 'file_name', 'sender', 'note'],
    name: 'display_name',
    title: `coalesce(x.display_name, x.file_name, 'Receipt')`,
    date: 'coalesce(x.date, x.created_at::date)',
    recent: 'x.created_at',
    amount: 'x.amount',
    currency: 'x.currency',
    where: 'x.deleted_at is null',
  },
  {
    type: 'tracker_project',
    scope: 'tracker-projects.read',
    table: 'tracker_projects',
    columns: ['name', 'description'],
    name: 'name',
    title: 'x.name',
    date: 'x.created_at::date',
    recent: 'x.created_at',
    amount: null,
    currency: null,
  },
];

/** The text a kind's partial-word candidates are matched on, over `alias`, and the trigram index that serves it. */
export const trigramText = (s: SearchSource, alias: string) => (s.text ?? `x.${s.name}`).replaceAll('x.', `${alias}.`);
export const trigramIndex = (s: SearchSource) => `${s.table}_${s.text ? 'text' : 'name'}_trgm_idx`;
