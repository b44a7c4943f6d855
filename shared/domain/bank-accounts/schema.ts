import { z } from 'zod';
import { ACCOUNT_TYPES } from '../../db/models';
import { currencyCode } from '../common/currency';
import { moneyAmount } from '../common/money';
import { isoDate } from '../common/query';

export const bankAccountSchema = z
  .object({
    id: z.uuid(),
    connectionId: z.uuid().nullable(),
    name: z.string(),
    currency: z.string(),
    type: z.enum(ACCOUNT_TYPES),
    subtype: z.string().nullable(),
    mask: z.string().nullable().meta({ description: 'Last digits of the account number.' }),
    balance: z
      .number()
      .nullable()
      .meta({ description: "The provider's balance; for a manual account, its opening balance plus its transactions since." }),
    availableBalance: z.number().nullable(),
    creditLimit: z.number().nullable(),
    enabled: z.boolean().meta({ description: 'Disabled accounts are left out of reports.' }),
    manual: z.boolean().meta({
      description: 'An account no provider feeds (cash, a card without a feed); its transactions are entered by hand or imported.',
    }),
    openingBalance: z.number().nullable(),
    openingBalanceDate: z.string().nullable(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: 'BankAccount' });

export type BankAccountDto = z.infer<typeof bankAccountSchema>;

export const idParams = z.object({ id: z.uuid() });
export const updateBankAccountBody = z
  .object({
    name: z.string().trim().min(1).max(200).optional(),
    enabled: z.boolean().optional(),
    openingBalance: moneyAmount.optional().meta({ description: 'Manual accounts only: the balance on `openingBalanceDate`.' }),
    openingBalanceDate: isoDate.nullable().optional().meta({
      description: 'Manual accounts only: transactions on this day or later count towards the balance; null: all of them.',
    }),
  })
  .strict()
  .refine((b) => Object.keys(b).length > 0, { message: 'give at least one field to change' })
  .meta({ id: 'UpdateBankAccount' });

export const createBankAccountBody = z
  .object({
    name: z.string().trim().min(1).max(200),
    currency: currencyCode,
    type: z.enum(ACCOUNT_TYPES).default('depository'),
    openingBalance: moneyAmount.default(0).meta({ description: 'The balance on `openingBalanceDate`.' }),
    openingBalanceDate: isoDate
      .optional()
      .meta({ description: 'Transactions on this day or later count towards the balance; default: all of them.' }),
  })
  .strict()
  .meta({ id: 'CreateBankAccount', description: 'A manual account: no provider feeds it.' });
