import { createProduct, deleteProduct, getProduct, listProducts, updateProduct } from '../../shared/domain/invoice-products/service';
import {
  createProductBody,
  listProductsQuery,
  productIdParams,
  productSchema,
  updateProductBody,
} from '../../shared/domain/invoice-products/schema';
import type { ApiDeps } from '../deps';
import { defineRoute } from './define';
import { none, one, page } from './replies';

const tag = 'Invoices';

export const invoiceProductRoutes = ({ db }: Pick<ApiDeps, 'db'>) => [
  defineRoute({
    method: 'get',
    path: '/invoice-products',
    scopes: ['invoices.read'],
    tag,
    summary: 'List products',
    description: 'Saved line items, newest first, keyset-paginated; `q` searches the name.',
    query: listProductsQuery,
    reply: page(productSchema),
    handler: ({ principal, query }) => listProducts(db, principal.teamId, query),
  }),
  defineRoute({
    method: 'get',
    path: '/invoice-products/:id',
    scopes: ['invoices.read'],
    tag,
    summary: 'Get a product',
    params: productIdParams,
    reply: one(productSchema),
    handler: ({ principal, params }) => getProduct(db, principal.teamId, params.id),
  }),
  defineRoute({
    method: 'post',
    path: '/invoice-products',
    scopes: ['invoices.write'],
    tag,
    summary: 'Save a product',
    description: 'A line item to reuse: name, price, unit, VAT and tax rates. A name the team already uses (any case) is 409.',
    body: createProductBody,
    reply: one(productSchema),
    status: 201,
    handler: ({ principal, body }) => createProduct(db, principal.teamId, body),
  }),
  defineRoute({
    method: 'patch',
    path: '/invoice-products/:id',
    scopes: ['invoices.write'],
    tag,
    summary: 'Edit a product',
    description: 'Invoices already made keep their own copies of the lines.',
    params: productIdParams,
    body: updateProductBody,
    reply: one(productSchema),
    handler: ({ principal, params, body }) => updateProduct(db, principal.teamId, params.id, body),
  }),
  defineRoute({
    method: 'delete',
    path: '/invoice-products/:id',
    scopes: ['invoices.write'],
    tag,
    summary: 'Delete a product',
    params: productIdParams,
    reply: none,
    handler: ({ principal, params }) => deleteProduct(db, principal.teamId, params.id),
  }),
];
