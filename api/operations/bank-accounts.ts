import { bankAccountSchema, createBankAccountBody, idParams, updateBankAccountBody } from '../../shared/domain/bank-connections/schema';
import {
  createManualAccount,
  deleteManualAccount,
  getAccount,
  listAccounts,
  updateAccount,
} from '../../shared/domain/bank-connections/service';
import { mutation, query } from './declare';
import { all, none, one } from './output';

export const bankAccounts = [
  query('bankAccounts.get', {
    rest: 'GET /bank-accounts',
    scopes: ['bank-accounts.read'],
    summary: 'List bank accounts',
    output: all(bankAccountSchema),
    run: ({ principal }, { db }) => listAccounts(db, principal.teamId),
  }),
  query('bankAccounts.getById', {
    rest: 'GET /bank-accounts/:id',
    scopes: ['bank-accounts.read'],
    summary: 'Get a bank account',
    input: idParams,
    output: one(bankAccountSchema),
    run: ({ principal, input }, { db }) => getAccount(db, principal.teamId, input.id),
  }),
  mutation('bankAccounts.create', {
    rest: 'POST /bank-accounts',
    status: 201,
    scopes: ['bank-accounts.write'],
    summary: 'Add a manual account',
    description:
      'An account no provider feeds (cash, a card without a feed): its transactions are entered by hand or imported, and its balance is its opening balance plus its booked transactions since `openingBalanceDate`.',
    input: createBankAccountBody,
    output: one(bankAccountSchema),
    run: ({ principal, input }, { db }) => createManualAccount(db, principal.teamId, input),
  }),
  mutation('bankAccounts.update', {
    rest: 'PATCH /bank-accounts/:id',
    body: 'data',
    scopes: ['bank-accounts.write'],
    summary: 'Update a bank account',
    description:
      "Renames, enables or disables an account. A manual account's `openingBalance` and `openingBalanceDate` can be changed too (its balance is recomputed from them); for a provider's account they are 409.",
    input: idParams.extend({ data: updateBankAccountBody }),
    output: one(bankAccountSchema),
    run: ({ principal, input }, { db }) => updateAccount(db, principal.teamId, input.id, input.data),
  }),
  mutation('bankAccounts.delete', {
    rest: 'DELETE /bank-accounts/:id',
    scopes: ['bank-accounts.write'],
    summary: 'Delete a manual account',
    description: "Its transactions stay, without an account. A provider's account is 409: disable it, or delete its connection.",
    input: idParams,
    output: none,
    run: ({ principal, input }, { db }) => deleteManualAccount(db, principal.teamId, input.id),
  }),
];
