import { z } from 'zod';
import { pageSize } from '../common/query';
import { sortParam } from '../common/sort';
import { vatIdInput } from '../common/vat-id';
import { E_INVOICE_FORMATS } from '../../db/models';

const nullableText = (max: number) => z.string().trim().max(max).nullable().optional();

export const customerSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    email: z.string().nullable(),
    billingEmail: z.string().nullable().meta({ description: 'Where invoices go, when not `email`.' }),
    phone: z.string().nullable(),
    website: z.string().nullable(),
    contact: z.string().nullable().meta({ description: 'Contact person.' }),
    addressLine1: z.string().nullable(),
    addressLine2: z.string().nullable(),
    city: z.string().nullable(),
    state: z.string().nullable(),
    zip: z.string().nullable(),
    countryCode: z.string().nullable().meta({ description: 'ISO 3166-1 alpha-2.' }),
    vatNumber: z.string().nullable(),
    buyerReference: z.string().nullable().meta({
      description: 'BT-10 of its e-invoices: the reference the customer asks invoices to carry (a German public buyer: its Leitweg-ID).',
    }),
    eInvoiceFormat: z.enum(E_INVOICE_FORMATS).nullable().meta({
      description: 'The e-invoice its invoice emails carry beside the PDF (Factur-X replaces the PDF); null: the PDF alone.',
    }),
    note: z.string().nullable(),
    invoiceReminders: z.boolean().meta({
      description:
        "Overdue invoices to this customer are chased by email on the team's cadence (`invoiceReminderDays`). Off unless turned on.",
    }),
    tags: z.array(z.object({ id: z.uuid(), name: z.string() })),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: 'Customer', description: 'Someone the team invoices.' });

export type CustomerDto = z.infer<typeof customerSchema>;

const fields = {
  email: z.email().nullable().optional(),
  billingEmail: z.email().nullable().optional(),
  phone: nullableText(50),
  website: nullableText(500),
  contact: nullableText(200),
  addressLine1: nullableText(200),
  addressLine2: nullableText(200),
  city: nullableText(100),
  state: nullableText(100),
  zip: nullableText(20),
  countryCode: z
    .string()
    .regex(/^[A-Z]{2}$/, 'ISO 3166-1 alpha-2, upper case')
    .nullable()
    .optional(),
  vatNumber: vatIdInput.nullable().optional(),
  buyerReference: nullableText(200),
  eInvoiceFormat: z.enum(E_INVOICE_FORMATS).nullable().optional(),
  note: nullableText(5000),
  invoiceReminders: z.boolean().optional(),
  tags: z.array(z.uuid()).max(50).optional().meta({ description: 'Tag ids of the team; replaces the current tags.' }),
};

export const createCustomerBody = z
  .object({ name: z.string().trim().min(1).max(200), ...fields })
  .strict()
  .meta({ id: 'CreateCustomer' });
export const updateCustomerBody = z
  .object({ name: z.string().trim().min(1).max(200).optional(), ...fields })
  .strict()
  .refine((b) => Object.keys(b).length > 0, { message: 'give at least one field to change' })
  .meta({ id: 'UpdateCustomer' });
export type CreateCustomerBody = z.infer<typeof createCustomerBody>;
export type UpdateCustomerBody = z.infer<typeof updateCustomerBody>;

export const customerIdParams = z.object({ id: z.uuid() });
export const CUSTOMER_SORT_FIELDS = ['name', 'createdAt'] as const;
export const listCustomersQuery = z.object({
  cursor: z.string().optional().meta({ description: "Opaque cursor from the previous page's `meta.cursor`." }),
  pageSize,
  sort: sortParam(CUSTOMER_SORT_FIELDS, '-createdAt'),
  q: z.string().trim().min(1).max(200).optional().meta({ description: 'Case-insensitive search in name, email and contact.' }),
});
export type ListCustomersQuery = z.infer<typeof listCustomersQuery>;
