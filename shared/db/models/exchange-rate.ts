import { Model } from 'objection';

/** A reference rate, `1 base = rate quote` on a day; public data, shared by every team (no id, no team). */
export class ExchangeRate extends Model {
  static override tableName = 'exchange_rates';
  static override idColumn = ['base', 'quote', 'date'];
  static override jsonAttributes: string[] = [];
  base!: string;
  quote!: string;
  date!: string;
  rate!: number;
  /** Where it came from: the host of the rates feed. */
  source!: string;
  updatedAt!: Date;
}
