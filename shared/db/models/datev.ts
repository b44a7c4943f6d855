import { TeamScopedModel } from './base';

/** A team's DATEV numbers for the EXTF header and its fallback account (migration 0095). */
export class DatevSettings extends TeamScopedModel {
  static override tableName = 'datev_settings';
  consultantNumber!: number | null;
  clientNumber!: number | null;
  accountLength!: number;
  suspenseAccount!: string;
  updatedAt!: Date;
}

/** The ledger account one category (by slug) or one bank account books to. */
export class DatevAccount extends TeamScopedModel {
  static override tableName = 'datev_accounts';
  categorySlug!: string | null;
  bankAccountId!: string | null;
  account!: string;
}
