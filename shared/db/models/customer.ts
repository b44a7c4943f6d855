import { TeamScopedModel } from './base';

export class Customer extends TeamScopedModel {
  static override tableName = 'customers';
  name!: string;
  email!: string | null;
  billingEmail!: string | null;
  phone!: string | null;
  website!: string | null;
  contact!: string | null;
  addressLine1!: string | null;
  addressLine2!: string | null;
  city!: string | null;
  state!: string | null;
  zip!: string | null;
  countryCode!: string | null;
  vatNumber!: string | null;
  note!: string | null;
  updatedAt!: string;
}
