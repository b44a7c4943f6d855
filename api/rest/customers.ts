import {
  createCustomerBody,
  customerIdParams,
  customerSchema,
  listCustomersQuery,
  updateCustomerBody,
} from '../../shared/domain/customers/schema';
import { createCustomer, deleteCustomer, getCustomer, listCustomers, updateCustomer } from '../../shared/domain/customers/service';
import type { ApiDeps } from '../deps';
import { defineRoute } from './define';
import { none, one, page } from './replies';

export const customerRoutes = ({ db }: Pick<ApiDeps, 'db'>) => [
  defineRoute({
    method: 'get',
    path: '/customers',
    scopes: ['customers.read'],
    tag: 'Customers',
    summary: 'List customers',
    description: 'Newest first, keyset-paginated.',
    query: listCustomersQuery,
    reply: page(customerSchema),
    handler: ({ principal, query }) => listCustomers(db, principal.teamId, query),
  }),
  defineRoute({
    method: 'get',
    path: '/customers/:id',
    scopes: ['customers.read'],
    tag: 'Customers',
    summary: 'Get a customer',
    params: customerIdParams,
    reply: one(customerSchema),
    handler: ({ principal, params }) => getCustomer(db, principal.teamId, params.id),
  }),
  defineRoute({
    method: 'post',
    path: '/customers',
    scopes: ['customers.write'],
    tag: 'Customers',
    summary: 'Create a customer',
    body: createCustomerBody,
    reply: one(customerSchema),
    status: 201,
    handler: ({ principal, body }) => createCustomer(db, principal.teamId, body),
  }),
  defineRoute({
    method: 'patch',
    path: '/customers/:id',
    scopes: ['customers.write'],
    tag: 'Customers',
    summary: 'Update a customer',
    params: customerIdParams,
    body: updateCustomerBody,
    reply: one(customerSchema),
    handler: ({ principal, params, body }) => updateCustomer(db, principal.teamId, params.id, body),
  }),
  defineRoute({
    method: 'delete',
    path: '/customers/:id',
    scopes: ['customers.write'],
    tag: 'Customers',
    summary: 'Delete a customer',
    description: 'Invoices and projects keep their history; their link to the customer is cleared.',
    params: customerIdParams,
    reply: none,
    handler: ({ principal, params }) => deleteCustomer(db, principal.teamId, params.id),
  }),
];
