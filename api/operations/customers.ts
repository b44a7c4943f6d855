import * as schema from '../../shared/domain/customers/schema';
import { createCustomer, deleteCustomer, getCustomer, listCustomers, updateCustomer } from '../../shared/domain/customers/service';
import { mutation, none, one, page, query } from './declare';

export const customers = [
  query('customers.get', 'GET /customers', ['customers.read'], {
    summary: 'List customers',
    description: 'Newest first, or by name with `sort=name`; keyset-paginated.',
    input: schema.listCustomersQuery,
    output: page(schema.customerSchema),
    run: ({ principal, input }, { db }) => listCustomers(db, principal.teamId, input),
  }),
  query('customers.getById', 'GET /customers/:id', ['customers.read'], {
    summary: 'Get a customer',
    input: schema.customerIdParams,
    output: one(schema.customerSchema),
    run: ({ principal, input }, { db }) => getCustomer(db, principal.teamId, input.id),
  }),
  mutation('customers.create', 'POST /customers', ['customers.write'], {
    status: 201,
    summary: 'Create a customer',
    input: schema.createCustomerBody,
    output: one(schema.customerSchema),
    run: ({ principal, input }, { db }) => createCustomer(db, principal.teamId, input),
  }),
  mutation('customers.update', 'PATCH /customers/:id', ['customers.write'], {
    body: 'data',
    summary: 'Update a customer',
    input: schema.customerIdParams.extend({ data: schema.updateCustomerBody }),
    output: one(schema.customerSchema),
    run: ({ principal, input }, { db }) => updateCustomer(db, principal.teamId, input.id, input.data),
  }),
  mutation('customers.delete', 'DELETE /customers/:id', ['customers.write'], {
    summary: 'Delete a customer',
    description: 'Invoices and projects keep their history; their link to the customer is cleared.',
    input: schema.customerIdParams,
    output: none,
    run: ({ principal, input }, { db }) => deleteCustomer(db, principal.teamId, input.id),
  }),
];
