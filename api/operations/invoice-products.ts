import { createProduct, deleteProduct, getProduct, listProducts, updateProduct } from '../../shared/domain/invoice-products/service';
import * as schema from '../../shared/domain/invoice-products/schema';
import { mutation, none, one, page, query } from './declare';

export const invoiceProducts = [
  query('invoiceProducts.get', 'GET /invoice-products', ['invoices.read'], {
    formerly: ['invoiceProducts.list'],
    summary: 'List products',
    description: 'Saved line items, newest first, keyset-paginated; `q` searches the name.',
    input: schema.listProductsQuery,
    output: page(schema.productSchema),
    run: ({ principal, input }, { db }) => listProducts(db, principal.teamId, input),
  }),
  query('invoiceProducts.getById', 'GET /invoice-products/:id', ['invoices.read'], {
    summary: 'Get a product',
    input: schema.productIdParams,
    output: one(schema.productSchema),
    run: ({ principal, input }, { db }) => getProduct(db, principal.teamId, input.id),
  }),
  mutation('invoiceProducts.create', 'POST /invoice-products', ['invoices.write'], {
    status: 201,
    summary: 'Save a product',
    description: 'A line item to reuse: name, price, unit, VAT and tax rates. A name the team already uses (any case) is 409.',
    input: schema.createProductBody,
    output: one(schema.productSchema),
    run: ({ principal, input }, { db }) => createProduct(db, principal.teamId, input),
  }),
  mutation('invoiceProducts.update', 'PATCH /invoice-products/:id', ['invoices.write'], {
    body: 'data',
    summary: 'Edit a product',
    description: 'Invoices already made keep their own copies of the lines.',
    input: schema.productIdParams.extend({ data: schema.updateProductBody }),
    output: one(schema.productSchema),
    run: ({ principal, input }, { db }) => updateProduct(db, principal.teamId, input.id, input.data),
  }),
  mutation('invoiceProducts.delete', 'DELETE /invoice-products/:id', ['invoices.write'], {
    summary: 'Delete a product',
    input: schema.productIdParams,
    output: none,
    run: ({ principal, input }, { db }) => deleteProduct(db, principal.teamId, input.id),
  }),
];
