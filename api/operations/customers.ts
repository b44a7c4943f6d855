import {
  createCustomerBody,
  customerIdParams,
  customerSchema,
  listCustomersQuery,
  updateCustomerBody,
} from '../../shared/domain/customers/schema';
import { createCustomer, deleteCustomer, getCustomer, listCustomers, updateCustomer } from '../../shared/domain/customers/service';
import { mutation, query } from './declare';
import { none, one, page } from './output';

export const customers = [
  query('customers.get', {
    rest: 'GET /customers',
    scopes: ['customers.read'],
    summary: 'List customers',
    description: 'Newest first, keyset-paginated.',
    input: listCustomersQuery,
    output: page(customerSchema),
    run: ({ principal, input }, { db }) => listCustomers(db, principal.teamId, input),
  }),
  query('customers.getById', {
    rest: 'GET /customers/:id',
    scopes: ['customers.read'],
    summary: 'Get a customer',
    input: customerIdParams,
    output: one(customerSchema),
    run: ({ principal, input }, { db }) => getCustomer(db, principal.teamId, input.id),
  }),
  mutation('customers.create', {
    rest: 'POST /customers',
    status: 201,
    scopes: ['customers.write'],
    summary: 'Create a customer',
    input: createCustomerBody,
    output: one(customerSchema),
    run: ({ principal, input }, { db }) => createCustomer(db, principal.teamId, input),
  }),
  mutation('customers.update', {
    rest: 'PATCH /customers/:id',
    body: 'data',
    scopes: ['customers.write'],
    summary: 'Update a customer',
    input: customerIdParams.extend({ data: updateCustomerBody }),
    output: one(customerSchema),
    run: ({ principal, input }, { db }) => updateCustomer(db, principal.teamId, input.id, input.data),
  }),
  mutation('customers.delete', {
    rest: 'DELETE /customers/:id',
    scopes: ['customers.write'],
    summary: 'Delete a customer',
    description: 'Invoices and projects keep their history; their link to the customer is cleared.',
    input: customerIdParams,
    output: none,
    run: ({ principal, input }, { db }) => deleteCustomer(db, principal.teamId, input.id),
  }),
];
