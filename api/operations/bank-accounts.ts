import { bankAccountSchema, createBankAccountBody, idParams, updateBankAccountBody } from '../../shared/domain/bank-accounts/schema';
import * as service from '../../shared/domain/bank-accounts/service';
import { all, mutation, none, one, query } from './declare';

export const bankAccounts = [
  query('bankAccounts.get', 'GET /bank-accounts', ['bank-accounts.read'], {
    summary: 'List bank accounts',
    output: all(bankAccountSchema),
    run: ({ principal }, { db }) => service.listAccounts(db, principal.teamId),
  }),
  query('bankAccounts.getById', 'GET /bank-accounts/:id', ['bank-accounts.read'], {
    summary: 'Get a bank account',
    input: idParams,
    output: one(bankAccountSchema),
    run: ({ principal, input }, { db }) => service.getAccount(db, principal.teamId, input.id),
  }),
  mutation('bankAccounts.create', 'POST /bank-accounts', ['bank-accounts.write'], {
    status: 201,
    summary: 'Add a manual account',
    description:
      'An account no provider feeds (cash, a card without a feed): its transactions are entered by hand or imported, and its balance is its opening balance plus its booked transactions since `openingBalanceDate`.',
    input: createBankAccountBody,
    output: one(bankAccountSchema),
    run: ({ principal, input }, { db }) => service.createManualAccount(db, principal.teamId, input),
  }),
  mutation('bankAccounts.update', 'PATCH /bank-accounts/:id', ['bank-accounts.write'], {
    body: 'data',
    summary: 'Update a bank account',
    description:
      "Renames, enables or disables an account. A manual account's `openingBalance` and `openingBalanceDate` can be changed too (its balance is recomputed from them); for a provider's account they are 409.",
    input: idParams.extend({ data: updateBankAccountBody }),
    output: one(bankAccountSchema),
    run: ({ principal, input }, { db }) => service.updateAccount(db, principal.teamId, input.id, input.data),
  }),
  mutation('bankAccounts.delete', 'DELETE /bank-accounts/:id', ['bank-accounts.write'], {
    summary: 'Delete a manual account',
    description: "Its transactions stay, without an account. A provider's account is 409: disable it, or delete its connection.",
    input: idParams,
    output: none,
    run: ({ principal, input }, { db }) => service.deleteManualAccount(db, principal.teamId, input.id),
  }),
];
