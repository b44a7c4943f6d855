import { accountMappingSchema, updateAccountMappingBody } from '../../shared/domain/datev/schema';
import { getAccountMapping, updateAccountMapping } from '../../shared/domain/datev/service';
import { mutation, one, query } from './declare';

/** The team's DATEV account mapping, which the `datev` export format books with. */
export const datev = [
  query('datev.getAccountMapping', 'GET /datev/account-mapping', ['transactions.read'], {
    summary: 'The DATEV account mapping',
    description:
      'The consultant and client numbers of the EXTF header, the account length, the suspense account, and the ledger account every category and bank account books to in the `datev` export: the team’s own (`team`), else SKR03’s for a default category or any bank account (1200), else the suspense account. Transfers between the team’s own accounts book against Geldtransit (1360).',
    output: one(accountMappingSchema),
    run: ({ principal }, { db }) => getAccountMapping(db, principal.teamId),
  }),
  mutation('datev.updateAccountMapping', 'PUT /datev/account-mapping', ['transactions.write'], {
    summary: 'Set the DATEV account mapping',
    description:
      'Replaces the mapping: the numbers, and the accounts of the categories (by slug) and bank accounts listed; what is left out falls back to the SKR03 defaults. 400 for an account without the account length’s digits, or a category or bank account that is not the team’s; nothing is written then.',
    input: updateAccountMappingBody,
    output: one(accountMappingSchema),
    run: ({ principal, input }, { db }) => updateAccountMapping(db, principal.teamId, input),
  }),
];
