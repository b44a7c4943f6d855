import { TeamScopedModel } from './base';

export const SERIES_FREQUENCIES = ['weekly', 'monthly', 'quarterly', 'yearly'] as const;
export type SeriesFrequency = (typeof SERIES_FREQUENCIES)[number];
export const SERIES_STATUSES = ['active', 'paused', 'ended'] as const;

/** A line of the template, as each invoice of the series is issued with it. */
export interface SeriesLineItem {
  name: string;
  quantity: number;
  unit?: string | null;
  price: number;
  vatRate?: number | null;
  taxRate?: number | null;
}

export class InvoiceSeries extends TeamScopedModel {
  static override tableName = 'invoice_series';
  static override jsonAttributes = ['lineItems'];
  customerId!: string;
  name!: string;
  currency!: string;
  lineItems!: SeriesLineItem[];
  discount!: number;
  note!: string | null;
  frequency!: SeriesFrequency;
  startDate!: string;
  endAfter!: number | null;
  endDate!: string | null;
  dueInDays!: number;
  delivery!: 'email' | 'finalize';
  status!: (typeof SERIES_STATUSES)[number];
  issuedCount!: number;
  lastIssuedAt!: Date | null;
  createdBy!: string | null;
  updatedAt!: Date;
}
