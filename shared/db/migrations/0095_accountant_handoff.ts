import type { Knex } from 'knex';
import { disableTeamWall, enableTeamWall } from './0054_team_wall';
import { auditTable } from './0088_audit_trail';

/**
 * The accountant's hand-off:
 * - `datev_settings` and `datev_accounts`: a team's DATEV numbers (consultant, client) and which
 *   ledger account each category and bank account books to in the EXTF Buchungsstapel export; what is
 *   not mapped falls back to the SKR03 defaults the domain keeps.
 * - `accountant_links`: an export shared with an outside accountant by a random token (only its hash
 *   kept), expiring, revocable; `accountant_link_uses` records each use and each refused attempt
 *   (expired, revoked), so both show in the audit trail with the link as the actor.
 * - The default categories' VAT rates: categories created before new teams got a rated default tree
 *   (system categories with a default slug) take the German standard and reduced rates where they
 *   have none. A snapshot of the tree at this migration, not the domain's current list.
 */
const RATED_DEFAULTS: Record<string, { rate: number; type: string }> = {
  revenue: { rate: 19, type: 'vat' },
  'office-supplies': { rate: 19, type: 'vat' },
  software: { rate: 19, type: 'vat' },
  equipment: { rate: 19, type: 'vat' },
  travel: { rate: 19, type: 'vat' },
  'public-transport': { rate: 7, type: 'vat' },
  accommodation: { rate: 7, type: 'vat' },
  meals: { rate: 19, type: 'vat' },
  'books-and-subscriptions': { rate: 7, type: 'vat' },
  marketing: { rate: 19, type: 'vat' },
  'professional-services': { rate: 19, type: 'vat' },
  telecommunications: { rate: 19, type: 'vat' },
  insurance: { rate: 0, type: 'exempt' },
  'bank-fees': { rate: 0, type: 'exempt' },
};

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
create table datev_settings (
  id uuid primary key default gen_random_uuid(),
  team_id uuid not null unique references teams(id) on delete cascade,
  -- Beraternummer and Mandantennummer of the EXTF header: the accountant's and the client's numbers at DATEV.
  consultant_number integer check (consultant_number between 1001 and 9999999),
  client_number integer check (client_number between 1 and 99999),
  -- Sachkontenlänge: the digits of a ledger account.
  account_length smallint not null default 4 check (account_length between 4 and 8),
  -- Where a transaction whose category has no account is booked, for the accountant to sort out.
  suspense_account text not null default '1590' check (suspense_account ~ '^[0-9]{4,8}$'),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

create table datev_accounts (
  id uuid primary key default gen_random_uuid(),
  team_id uuid not null references teams(id) on delete cascade,
  category_slug text,
  bank_account_id uuid references bank_accounts(id) on delete cascade,
  account text not null check (account ~ '^[0-9]{4,8}$'),
  created_at timestamptz not null default now(),
  check ((category_slug is null) <> (bank_account_id is null)),
  unique (team_id, category_slug),
  unique (team_id, bank_account_id)
);

create table accountant_links (
  id uuid primary key default gen_random_uuid(),
  team_id uuid not null references teams(id) on delete cascade,
  export_id uuid not null references exports(id) on delete cascade,
  token_hash text not null unique,
  email text,
  expires_at timestamptz not null,
  revoked_at timestamptz,
  created_by uuid references users(id) on delete set null,
  created_at timestamptz not null default now()
);
create index accountant_links_export_idx on accountant_links (team_id, export_id, created_at desc);

create table accountant_link_uses (
  id uuid primary key default gen_random_uuid(),
  team_id uuid not null references teams(id) on delete cascade,
  link_id uuid not null references accountant_links(id) on delete cascade,
  outcome text not null check (outcome in ('downloaded', 'expired', 'revoked', 'unavailable')),
  ip text,
  created_at timestamptz not null default now()
);
create index accountant_link_uses_link_idx on accountant_link_uses (link_id, created_at desc);
`);
  for (const table of ['datev_settings', 'datev_accounts', 'accountant_links', 'accountant_link_uses']) {
    await enableTeamWall(knex, table);
    await auditTable(knex, table);
  }
  for (const [slug, { rate, type }] of Object.entries(RATED_DEFAULTS))
    await knex.raw(
      `update transaction_categories set tax_rate = ?, tax_type = coalesce(tax_type, ?) where system and slug = ? and tax_rate is null`,
      [rate, type, slug],
    );
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ['accountant_link_uses', 'accountant_links', 'datev_accounts', 'datev_settings']) {
    await disableTeamWall(knex, table);
    await knex.raw('drop table if exists ??', [table]);
  }
}
