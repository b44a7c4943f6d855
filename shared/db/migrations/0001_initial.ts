import type { Knex } from 'knex';

/**
 * The whole data model. Conventions: uuid ids, timestamptz, money as numeric(19,4) signed
 * (negative = expense), ISO 4217 currency upper case, statuses as text with CHECK constraints
 * (simpler to extend than PostgreSQL enums). Every business table carries an indexed team_id.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
create extension if not exists pgcrypto;

create table teams (
  id uuid primary key default gen_random_uuid(),
  name text not null,
  inbox_id text not null unique,
  email text,
  base_currency char(3),
  country_code char(2),
  logo_url text,
  plan text not null default 'trial' check (plan in ('trial','starter','pro')),
  subscription_status text check (subscription_status in ('trialing','active','past_due','canceled','revoked')),
  subscription_id text,
  billing_customer_id text,
  subscription_current_period_end timestamptz,
  canceled_at timestamptz,
  auto_match boolean not null default false,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

create table users (
  id uuid primary key default gen_random_uuid(),
  email text not null,
  full_name text,
  avatar_url text,
  locale text not null default 'en',
  timezone text,
  team_id uuid references teams(id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create unique index users_email_unique on users (lower(email));
create index users_team_id_idx on users (team_id);

create table team_members (
  id uuid primary key default gen_random_uuid(),
  team_id uuid not null references teams(id) on delete cascade,
  user_id uuid not null references users(id) on delete cascade,
  role text not null default 'member' check (role in ('owner','member')),
  created_at timestamptz not null default now(),
  unique (team_id, user_id)
);
create index team_members_user_id_idx on team_members (user_id);

create table api_keys (
  id uuid primary key default gen_random_uuid(),
  team_id uuid not null references teams(id) on delete cascade,
  user_id uuid not null references users(id) on delete cascade,
  name text not null,
  key_hash char(64) not null unique,
  key_hint text not null,
  scopes text[] not null default '{}',
  last_used_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index api_keys_team_id_idx on api_keys (team_id);

create table oauth_applications (
  id uuid primary key default gen_random_uuid(),
  team_id uuid not null references teams(id) on delete cascade,
  created_by uuid references users(id) on delete set null,
  name text not null,
  description text,
  logo_url text,
  website text,
  client_id text not null unique,
  client_secret_hash char(64),
  redirect_uris text[] not null,
  scopes text[] not null default '{}',
  is_public boolean not null default false,
  active boolean not null default true,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index oauth_applications_team_id_idx on oauth_applications (team_id);

create table oauth_authorization_codes (
  id uuid primary key default gen_random_uuid(),
  team_id uuid not null references teams(id) on delete cascade,
  application_id uuid not null references oauth_applications(id) on delete cascade,
  user_id uuid not null references users(id) on delete cascade,
  code_hash char(64) not null unique,
  redirect_uri text not null,
  scopes text[] not null,
  code_challenge text,
  code_challenge_method text check (code_challenge_method in ('S256')),
  expires_at timestamptz not null,
  used_at timestamptz,
  created_at timestamptz not null default now()
);
create index oauth_authorization_codes_team_id_idx on oauth_authorization_codes (team_id);

create table oauth_tokens (
  id uuid primary key default gen_random_uuid(),
  team_id uuid not null references teams(id) on delete cascade,
  application_id uuid not null references oauth_applications(id) on delete cascade,
  user_id uuid not null references users(id) on delete cascade,
  authorization_code_id uuid references oauth_authorization_codes(id) on delete set null,
  family_id uuid not null,
  access_token_hash char(64) not null unique,
  refresh_token_hash char(64) unique,
  scopes text[] not null,
  expires_at timestamptz not null,
  refresh_expires_at timestamptz,
  rotated_at timestamptz,
  revoked_at timestamptz,
  last_used_at timestamptz,
  created_at timestamptz not null default now()
);
create index oauth_tokens_team_id_idx on oauth_tokens (team_id);
create index oauth_tokens_family_id_idx on oauth_tokens (family_id);
create index oauth_tokens_app_user_idx on oauth_tokens (application_id, user_id);

create table oauth_consents (
  id uuid primary key default gen_random_uuid(),
  team_id uuid not null references teams(id) on delete cascade,
  application_id uuid not null references oauth_applications(id) on delete cascade,
  user_id uuid not null references users(id) on delete cascade,
  scopes text[] not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (application_id, user_id, team_id)
);
create index oauth_consents_team_id_idx on oauth_consents (team_id);

create table bank_connections (
  id uuid primary key default gen_random_uuid(),
  team_id uuid not null references teams(id) on delete cascade,
  provider text not null check (provider in ('bank-a','bank-b')),
  reference_id text not null,
  access_token_encrypted text,
  institution_id text,
  institution_name text,
  logo_url text,
  status text not null default 'connected' check (status in ('connected','disconnected')),
  error_code text,
  error_message text,
  sync_cursor text,
  last_synced_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (provider, reference_id)
);
create index bank_connections_team_id_idx on bank_connections (team_id);

create table bank_accounts (
  id uuid primary key default gen_random_uuid(),
  team_id uuid not null references teams(id) on delete cascade,
  bank_connection_id uuid references bank_connections(id) on delete set null,
  provider_account_id text,
  name text not null,
  currency char(3) not null,
  type text not null default 'depository' check (type in ('depository','credit','loan','other_asset','other_liability')),
  subtype text,
  mask text,
  balance numeric(19,4),
  available_balance numeric(19,4),
  credit_limit numeric(19,4),
  enabled boolean not null default true,
  manual boolean not null default false,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (bank_connection_id, provider_account_id)
);
create index bank_accounts_team_id_idx on bank_accounts (team_id);

create table transaction_categories (
  id uuid primary key default gen_random_uuid(),
  team_id uuid not null references teams(id) on delete cascade,
  parent_id uuid references transaction_categories(id) on delete set null,
  name text not null,
  slug text not null,
  color text,
  description text,
  tax_rate numeric(7,4),
  tax_type text,
  system boolean not null default false,
  excluded boolean not null default false,
  created_at timestamptz not null default now(),
  unique (team_id, slug)
);

create table transactions (
  id uuid primary key default gen_random_uuid(),
  team_id uuid not null references teams(id) on delete cascade,
  bank_account_id uuid references bank_accounts(id) on delete set null,
  provider_transaction_id text,
  date date not null,
  name text not null,
  description text,
  method text not null default 'other' check (method in ('payment','card_purchase','card_atm','transfer','ach','wire','deposit','interest','fee','other','unknown')),
  amount numeric(19,4) not null,
  currency char(3) not null,
  status text not null default 'posted' check (status in ('posted','pending','excluded','completed','archived')),
  category_slug text,
  counterparty_name text,
  merchant_name text,
  note text,
  manual boolean not null default false,
  internal boolean not null default false,
  recurring boolean not null default false,
  frequency text check (frequency in ('weekly','biweekly','monthly','semi_monthly','annually','irregular')),
  tax_amount numeric(19,4),
  tax_rate numeric(7,4),
  tax_type text,
  assigned_id uuid references users(id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (team_id, provider_transaction_id)
);
-- The list is newest first with (date, id) as the keyset: this index serves it without a sort.
create index transactions_team_date_id_idx on transactions (team_id, date desc, id desc);
create index transactions_team_amount_idx on transactions (team_id, amount);
create index transactions_bank_account_id_idx on transactions (bank_account_id);

create table tags (
  id uuid primary key default gen_random_uuid(),
  team_id uuid not null references teams(id) on delete cascade,
  name text not null,
  color text,
  created_at timestamptz not null default now(),
  unique (team_id, name)
);

create table transaction_tags (
  id uuid primary key default gen_random_uuid(),
  team_id uuid not null references teams(id) on delete cascade,
  transaction_id uuid not null references transactions(id) on delete cascade,
  tag_id uuid not null references tags(id) on delete cascade,
  unique (transaction_id, tag_id)
);
create index transaction_tags_team_id_idx on transaction_tags (team_id);
create index transaction_tags_tag_id_idx on transaction_tags (tag_id);

create table customers (
  id uuid primary key default gen_random_uuid(),
  team_id uuid not null references teams(id) on delete cascade,
  name text not null,
  email text,
  billing_email text,
  phone text,
  website text,
  contact text,
  address_line_1 text,
  address_line_2 text,
  city text,
  state text,
  zip text,
  country_code char(2),
  vat_number text,
  note text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index customers_team_id_idx on customers (team_id, created_at desc, id desc);

create table customer_tags (
  id uuid primary key default gen_random_uuid(),
  team_id uuid not null references teams(id) on delete cascade,
  customer_id uuid not null references customers(id) on delete cascade,
  tag_id uuid not null references tags(id) on delete cascade,
  unique (customer_id, tag_id)
);
create index customer_tags_team_id_idx on customer_tags (team_id);

create table invoices (
  id uuid primary key default gen_random_uuid(),
  team_id uuid not null references teams(id) on delete cascade,
  customer_id uuid references customers(id) on delete set null,
  invoice_number text not null,
  status text not null default 'draft' check (status in ('draft','scheduled','unpaid','overdue','paid','canceled','refunded')),
  currency char(3) not null,
  subtotal numeric(19,4) not null default 0,
  tax numeric(19,4) not null default 0,
  vat numeric(19,4) not null default 0,
  discount numeric(19,4) not null default 0,
  amount numeric(19,4) not null default 0,
  issue_date date,
  due_date date,
  note text,
  scheduled_at timestamptz,
  sent_at timestamptz,
  paid_at timestamptz,
  refunded_at timestamptz,
  canceled_at timestamptz,
  payment_reference text,
  created_by uuid references users(id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (team_id, invoice_number)
);
create index invoices_team_id_idx on invoices (team_id, created_at desc, id desc);

create table invoice_line_items (
  id uuid primary key default gen_random_uuid(),
  team_id uuid not null references teams(id) on delete cascade,
  invoice_id uuid not null references invoices(id) on delete cascade,
  position integer not null,
  name text not null,
  quantity numeric(19,4) not null default 1,
  unit text,
  price numeric(19,4) not null,
  vat_rate numeric(7,4),
  tax_rate numeric(7,4),
  unique (invoice_id, position)
);
create index invoice_line_items_team_id_idx on invoice_line_items (team_id);

create table documents (
  id uuid primary key default gen_random_uuid(),
  team_id uuid not null references teams(id) on delete cascade,
  name text not null,
  storage_key text not null,
  mime_type text not null,
  size bigint not null,
  sha256 char(64) not null,
  title text,
  processing_status text not null default 'pending' check (processing_status in ('pending','processing','completed','failed')),
  deleted_at timestamptz,
  created_by uuid references users(id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index documents_team_id_idx on documents (team_id, created_at desc, id desc);
create index documents_team_sha256_idx on documents (team_id, sha256);

create table inbox_items (
  id uuid primary key default gen_random_uuid(),
  team_id uuid not null references teams(id) on delete cascade,
  document_id uuid references documents(id) on delete set null,
  source text not null check (source in ('messaging','email','upload')),
  reference text not null,
  status text not null default 'new' check (status in ('new','processing','analyzing','pending','suggested_match','no_match','done','archived','deleted')),
  sender text,
  file_name text,
  mime_type text,
  size bigint,
  display_name text,
  amount numeric(19,4),
  currency char(3),
  date date,
  tax_amount numeric(19,4),
  tax_rate numeric(7,4),
  transaction_id uuid references transactions(id) on delete set null,
  workflow_id text,
  deleted_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (team_id, reference)
);
create index inbox_items_team_id_idx on inbox_items (team_id, created_at desc, id desc);
create index inbox_items_team_status_idx on inbox_items (team_id, status);

create table transaction_attachments (
  id uuid primary key default gen_random_uuid(),
  team_id uuid not null references teams(id) on delete cascade,
  transaction_id uuid not null references transactions(id) on delete cascade,
  document_id uuid references documents(id) on delete set null,
  inbox_item_id uuid references inbox_items(id) on delete set null,
  name text not null,
  mime_type text not null,
  size bigint not null,
  storage_key text not null,
  created_at timestamptz not null default now()
);
create index transaction_attachments_team_id_idx on transaction_attachments (team_id);
create index transaction_attachments_transaction_id_idx on transaction_attachments (transaction_id);

create table match_suggestions (
  id uuid primary key default gen_random_uuid(),
  team_id uuid not null references teams(id) on delete cascade,
  inbox_item_id uuid not null references inbox_items(id) on delete cascade,
  transaction_id uuid not null references transactions(id) on delete cascade,
  status text not null default 'pending' check (status in ('pending','confirmed','declined','expired')),
  match_type text not null check (match_type in ('auto_matched','suggested','manual')),
  confidence numeric(5,4) not null,
  amount_score numeric(5,4),
  currency_score numeric(5,4),
  date_score numeric(5,4),
  name_score numeric(5,4),
  decided_at timestamptz,
  decided_by uuid references users(id) on delete set null,
  decided_via text check (decided_via in ('chat','api','timeout','auto')),
  created_at timestamptz not null default now(),
  unique (inbox_item_id, transaction_id)
);
create index match_suggestions_team_id_idx on match_suggestions (team_id, status);

create table messaging_connections (
  id uuid primary key default gen_random_uuid(),
  team_id uuid not null references teams(id) on delete cascade,
  phone_number text not null unique,
  created_at timestamptz not null default now()
);
create index messaging_connections_team_id_idx on messaging_connections (team_id);

create table tracker_projects (
  id uuid primary key default gen_random_uuid(),
  team_id uuid not null references teams(id) on delete cascade,
  customer_id uuid references customers(id) on delete set null,
  name text not null,
  description text,
  status text not null default 'in_progress' check (status in ('in_progress','completed')),
  billable boolean not null default false,
  rate numeric(19,4),
  currency char(3),
  estimate_hours integer,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index tracker_projects_team_id_idx on tracker_projects (team_id, created_at desc, id desc);

create table tracker_project_tags (
  id uuid primary key default gen_random_uuid(),
  team_id uuid not null references teams(id) on delete cascade,
  project_id uuid not null references tracker_projects(id) on delete cascade,
  tag_id uuid not null references tags(id) on delete cascade,
  unique (project_id, tag_id)
);
create index tracker_project_tags_team_id_idx on tracker_project_tags (team_id);

create table tracker_entries (
  id uuid primary key default gen_random_uuid(),
  team_id uuid not null references teams(id) on delete cascade,
  project_id uuid not null references tracker_projects(id) on delete cascade,
  assigned_id uuid references users(id) on delete set null,
  description text,
  date date not null,
  start timestamptz not null,
  stop timestamptz,
  duration integer,
  rate numeric(19,4),
  currency char(3),
  billed boolean not null default false,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  check (stop is null or stop >= start)
);
create index tracker_entries_team_id_idx on tracker_entries (team_id, date desc);
create index tracker_entries_project_id_idx on tracker_entries (project_id);

create table notifications (
  id uuid primary key default gen_random_uuid(),
  team_id uuid not null references teams(id) on delete cascade,
  user_id uuid references users(id) on delete cascade,
  type text not null,
  priority smallint not null default 5 check (priority between 1 and 10),
  status text not null default 'unread' check (status in ('unread','read','archived')),
  source text not null default 'system' check (source in ('system','user')),
  metadata jsonb not null default '{}',
  created_at timestamptz not null default now()
);
create index notifications_team_id_idx on notifications (team_id, created_at desc, id desc);

create table chat_messages (
  id uuid primary key default gen_random_uuid(),
  team_id uuid not null references teams(id) on delete cascade,
  user_id uuid references users(id) on delete set null,
  chat_id uuid not null,
  role text not null check (role in ('user','assistant','system')),
  content text not null,
  created_at timestamptz not null default now()
);
create index chat_messages_team_chat_idx on chat_messages (team_id, chat_id, created_at);

-- Every inbound provider event, once: the unique key makes a redelivery a no-op.
create table webhook_events (
  id uuid primary key default gen_random_uuid(),
  team_id uuid references teams(id) on delete set null,
  provider text not null check (provider in ('bank-a','bank-b','messaging','inbox','payments','subscriptions')),
  event_key text not null,
  event_type text not null,
  outcome text not null default 'received' check (outcome in ('received','processed','ignored','failed')),
  workflow_id text,
  error text,
  received_at timestamptz not null default now(),
  processed_at timestamptz,
  unique (provider, event_key)
);
create index webhook_events_team_id_idx on webhook_events (team_id);
`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
drop table if exists webhook_events, chat_messages, notifications, tracker_entries, tracker_project_tags,
  tracker_projects, messaging_connections, match_suggestions, transaction_attachments, inbox_items, documents,
  invoice_line_items, invoices, customer_tags, customers, transaction_tags, tags, transactions,
  transaction_categories, bank_accounts, bank_connections, oauth_consents, oauth_tokens,
  oauth_authorization_codes, oauth_applications, api_keys, team_members, users, teams cascade;
`);
}
