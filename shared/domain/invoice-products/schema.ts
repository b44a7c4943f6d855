import { z } from 'zod';
import { currencyCode } from '../common/currency';
import { pageSize } from '../common/query';

export const productSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    description: z.string().nullable(),
    price: z.number().meta({ description: 'Unit price, before tax.' }),
    currency: z.string().nullable().meta({ description: 'When set, the product is offered on invoices in this currency only.' }),
    unit: z.string().nullable(),
    vatRate: z.number().nullable(),
    taxRate: z.number().nullable(),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: 'InvoiceProduct', description: 'A saved line item: copy its name, price, unit and tax rates into an invoice line.' });
export type ProductDto = z.infer<typeof productSchema>;

const fields = {
  description: z.string().max(2000).nullable().optional(),
  price: z.number().min(-1e12).max(1e12),
  currency: currencyCode.nullable().optional(),
  unit: z.string().max(20).nullable().optional(),
  vatRate: z.number().min(0).max(100).nullable().optional(),
  taxRate: z.number().min(0).max(100).nullable().optional(),
};

export const createProductBody = z
  .object({ name: z.string().trim().min(1).max(500).meta({ description: 'Unique per team, case-insensitively (409).' }), ...fields })
  .strict()
  .meta({ id: 'CreateInvoiceProduct' });
export const updateProductBody = z
  .object({ name: z.string().trim().min(1).max(500).optional(), ...fields, price: fields.price.optional() })
  .strict()
  .refine((b) => Object.keys(b).length > 0, { message: 'give at least one field to change' })
  .meta({ id: 'UpdateInvoiceProduct' });
export type CreateProductBody = z.infer<typeof createProductBody>;
export type UpdateProductBody = z.infer<typeof updateProductBody>;

export const listProductsQuery = z.object({
  cursor: z.string().optional(),
  pageSize,
  q: z.string().trim().min(1).max(100).optional().meta({ description: 'Search in the name.' }),
});
export type ListProductsQuery = z.infer<typeof listProductsQuery>;
export const productIdParams = z.object({ id: z.uuid() });
