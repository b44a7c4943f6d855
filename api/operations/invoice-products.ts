import { createProduct, deleteProduct, getProduct, listProducts, updateProduct } from '../../shared/domain/invoice-products/service';
import {
  createProductBody,
  listProductsQuery,
  productIdParams,
  productSchema,
  updateProductBody,
} from '../../shared/domain/invoice-products/schema';
import { mutation, query } from './declare';
import { none, one, page } from './output';

export const invoiceProducts = [
  query('invoiceProducts.get', {
    rest: 'GET /invoice-products',
    formerly: ['invoiceProducts.list'],
    scopes: ['invoices.read'],
    summary: 'List products',
    description: 'Saved line items, newest first, keyset-paginated; `q` searches the name.',
    input: listProductsQuery,
    output: page(productSchema),
    run: ({ principal, input }, { db }) => listProducts(db, principal.teamId, input),
  }),
  query('invoiceProducts.getById', {
    rest: 'GET /invoice-products/:id',
    scopes: ['invoices.read'],
    summary: 'Get a product',
    input: productIdParams,
    output: one(productSchema),
    run: ({ principal, input }, { db }) => getProduct(db, principal.teamId, input.id),
  }),
  mutation('invoiceProducts.create', {
    rest: 'POST /invoice-products',
    status: 201,
    scopes: ['invoices.write'],
    summary: 'Save a product',
    description: 'A line item to reuse: name, price, unit, VAT and tax rates. A name the team already uses (any case) is 409.',
    input: createProductBody,
    output: one(productSchema),
    run: ({ principal, input }, { db }) => createProduct(db, principal.teamId, input),
  }),
  mutation('invoiceProducts.update', {
    rest: 'PATCH /invoice-products/:id',
    body: 'data',
    scopes: ['invoices.write'],
    summary: 'Edit a product',
    description: 'Invoices already made keep their own copies of the lines.',
    input: productIdParams.extend({ data: updateProductBody }),
    output: one(productSchema),
    run: ({ principal, input }, { db }) => updateProduct(db, principal.teamId, input.id, input.data),
  }),
  mutation('invoiceProducts.delete', {
    rest: 'DELETE /invoice-products/:id',
    scopes: ['invoices.write'],
    summary: 'Delete a product',
    input: productIdParams,
    output: none,
    run: ({ principal, input }, { db }) => deleteProduct(db, principal.teamId, input.id),
  }),
];
