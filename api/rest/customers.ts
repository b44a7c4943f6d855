import { z } from 'zod';
import {
  createCustomerBody,
  customerEnvelope,
  customerIdParams,
  customerListSchema,
  listCustomersQuery,
  updateCustomerBody,
} from '../../shared/domain/customers/schema';
import { createCustomer, deleteCustomer, getCustomer, listCustomers, updateCustomer } from '../../shared/domain/customers/service';
import type { ApiDeps } from '../deps';
import { defineRoute } from './define';

export const customerRoutes = ({ db }: Pick<ApiDeps, 'db'>) => [
  defineRoute({
    method: 'get', path: '/customers', tag: 'Customers', summary: 'List customers', description: 'Newest first, keyset-paginated.',
    query: listCustomersQuery, response: customerListSchema,
    handler: ({ principal, query }) => listCustomers(db, principal.teamId, query),
  }),
  defineRoute({
    method: 'get', path: '/customers/:id', tag: 'Customers', summary: 'Get a customer',
    params: customerIdParams, response: customerEnvelope,
    handler: async ({ principal, params }) => ({ data: await getCustomer(db, principal.teamId, params.id) }),
  }),
  defineRoute({
    method: 'post', path: '/customers', tag: 'Customers', summary: 'Create a customer',
    body: createCustomerBody, response: customerEnvelope, status: 201,
    handler: async ({ principal, body }) => ({ data: await createCustomer(db, principal.teamId, body) }),
  }),
  defineRoute({
    method: 'patch', path: '/customers/:id', tag: 'Customers', summary: 'Update a customer',
    params: customerIdParams, body: updateCustomerBody, response: customerEnvelope,
    handler: async ({ principal, params, body }) => ({ data: await updateCustomer(db, principal.teamId, params.id, body) }),
  }),
  defineRoute({
    method: 'delete', path: '/customers/:id', tag: 'Customers', summary: 'Delete a customer',
    description: 'Invoices and projects keep their history; their link to the customer is cleared.',
    params: customerIdParams, response: z.null(), status: 204,
    handler: ({ principal, params }) => deleteCustomer(db, principal.teamId, params.id),
  }),
];
