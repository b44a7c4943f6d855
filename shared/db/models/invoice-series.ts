import type { SeriesFrequency, SeriesLineItem } from '../../domain/invoices/series-schema';
import { TeamScopedModel } from './base';

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
  status!: 'active' | 'paused' | 'ended';
  issuedCount!: number;
  lastIssuedAt!: Date | null;
  createdBy!: string | null;
  updatedAt!: Date;
}
