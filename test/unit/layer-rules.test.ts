import path from 'node:path';
import { ESLint, type Linter } from 'eslint';
import { ROOT } from '../support/source-files';

/**
 * The layer rules of eslint.config.mjs fire: each probe below is linted by that config as the text of a
 * file of its layer that need not exist (`lintText` with a `filePath`), so nothing is written to disk.
 * The rules, their options, zones and file globs are the config's own; the test runs only these four
 * and lints without type information, which none of them reads: the config's type-aware parser would
 * load the whole TypeScript project first and make this test take many times longer.
 */
const PATHS = 'import-x/no-restricted-paths';
const IMPORTS = '@typescript-eslint/no-restricted-imports';
const SQL = 'no-restricted-syntax';
const CYCLE = 'import-x/no-cycle';
const LAYER_RULES = new Set([PATHS, IMPORTS, SQL, CYCLE]);

/** A function of api/ or activities/ holding `statement`, with the handles SQL is written on. */
const withHandles = (statement: string) => `import type { Db } from '../shared/db/knex';
declare const db: Db;
declare const trx: Db;
declare const knex: Db;
declare const deps: { db: Db };
declare const TeamMember: { query(db: Db): { findOne(where: object): Promise<unknown> } };
export async function probe(): Promise<void> {
  ${statement}
}
`;

interface Layer {
  name: string;
  /** Where the probes are linted as if they were there. */
  file: string;
  /** What the layer may not do: what it is, the probe, and the rule that must flag it. */
  breaches: [what: string, code: string, rule: string][];
  /** What the layer may do, in one probe: none of the rules of `breaches` may flag it. */
  legal: string;
}

const LAYERS: Layer[] = [
  {
    name: 'workflows/ (the deterministic sandbox)',
    file: 'workflows/probe.ts',
    breaches: [
      [
        'a value of activities/',
        "import { invoiceLifecycleActivities } from '../activities/invoices/lifecycle';\nexport const a = invoiceLifecycleActivities;\n",
        IMPORTS,
      ],
      [
        'a service of shared/domain',
        "import { invoiceTotals } from '../shared/domain/invoices/totals';\nexport const t = invoiceTotals;\n",
        IMPORTS,
      ],
      [
        'a type of shared/domain (only activity types cross)',
        "import type { InvoiceDto } from '../shared/domain/invoices/schema';\nexport type I = InvoiceDto;\n",
        IMPORTS,
      ],
      [
        'shared/temporal beyond its contracts',
        "import { createTemporalGateway } from '../shared/temporal/client';\nexport const g = createTemporalGateway;\n",
        IMPORTS,
      ],
      ['a package other than the workflow SDK', "import { z } from 'zod';\nexport const s = z.string();\n", IMPORTS],
      [
        'the activity SDK, which the sandbox lacks',
        "import { Context } from '@temporalio/activity';\nexport const c = Context;\n",
        IMPORTS,
      ],
      ['a Node built-in', "import { randomUUID } from 'node:crypto';\nexport const id = randomUUID;\n", IMPORTS],
    ],
    legal: `import { proxyActivities } from '@temporalio/workflow';
import type { InvoiceLifecycleActivities } from '../activities/invoices/lifecycle';
import { invoiceLifecycleContract } from '../shared/temporal/invoice-lifecycle/contract';
import { workflowContract } from '../shared/temporal/contract';
import { Stage } from '../shared/temporal/search-attribute-keys';
import { invoiceLifecycle } from './invoice-lifecycle';
export const probe = {
  activities: proxyActivities<InvoiceLifecycleActivities>({ startToCloseTimeout: '1m' }),
  uses: [invoiceLifecycleContract, workflowContract, Stage, invoiceLifecycle],
};
`,
  },
  {
    name: 'api/: what the gateway imports',
    file: 'api/probe.ts',
    breaches: [
      ['a model', "import { Transaction } from '../shared/db/models';\nexport const m = Transaction;\n", PATHS],
      [
        'any of shared/db but the Db handle and the team wall',
        "import { toIso } from '../shared/db/timestamps';\nexport const f = toIso;\n",
        PATHS,
      ],
      ['knex', "import knex from 'knex';\nexport const k = knex;\n", IMPORTS],
      ['a type of knex', "import type { Knex } from 'knex';\nexport type K = Knex;\n", IMPORTS],
      ['objection', "import { Model } from 'objection';\nexport const m = Model;\n", IMPORTS],
      ['workflow code', "import { invoiceLifecycle } from '../workflows/invoice-lifecycle';\nexport const w = invoiceLifecycle;\n", PATHS],
      ['activities/', "import { createActivities } from '../activities';\nexport const a = createActivities;\n", PATHS],
    ],
    legal: `import type { Db } from '../shared/db/knex';
import { withinTeam } from '../shared/db/team-wall';
import { listInvoices } from '../shared/domain/invoices/service';
import { invoiceLifecycleContract } from '../shared/temporal/invoice-lifecycle/contract';
import type { ApiDeps } from './deps';
export const probe = (db: Db, deps: ApiDeps) => [withinTeam, listInvoices, invoiceLifecycleContract, db, deps];
`,
  },
  {
    name: 'api/: SQL written in place',
    file: 'api/probe.ts',
    breaches: [
      ['a table call on the Db handle', withHandles("await db('invoices').where({ id: 'x' });"), SQL],
      ['a table call in a transaction', withHandles("await trx('webhook_events').insert({ id: 'x' });"), SQL],
      ['a table call on knex', withHandles("await knex('teams');"), SQL],
      ['raw SQL', withHandles("await db.raw('select 1');"), SQL],
      ['a transaction', withHandles('await deps.db.transaction(async () => {});'), SQL],
      ["an Objection model's query", withHandles("await TeamMember.query(deps.db).findOne({ teamId: 'x' });"), SQL],
    ],
    // What adapters do that looks like SQL to a regex: read the query string, hash a raw body, call a tRPC query.
    legal: `import { createHmac } from 'node:crypto';
import type { Db } from '../shared/db/knex';
import { isTeamMember } from '../shared/domain/auth/credentials';
declare const ctx: { query: Record<string, string | undefined> };
declare const req: { raw: Buffer };
declare const trpc: { invoicePaymentSuggestions: { get: { query(input: object): Promise<unknown> } } };
export async function probe(opts: { db: Db }): Promise<unknown[]> {
  const token = ctx.query['upload_token'];
  const member = await isTeamMember(opts.db, 'team', 'user');
  const digest = createHmac('sha256', 'secret').update(req.raw).digest('hex');
  const suggestions = await trpc.invoicePaymentSuggestions.get.query({ status: 'pending' });
  return [token, member, digest, suggestions];
}
`,
  },
  {
    name: 'activities/',
    file: 'activities/probe.ts',
    breaches: [
      ['a model', "import { Invoice } from '../shared/db/models';\nexport const m = Invoice;\n", PATHS],
      ['knex', "import knex from 'knex';\nexport const k = knex;\n", IMPORTS],
      ['objection', "import { Model } from 'objection';\nexport const m = Model;\n", IMPORTS],
      ['workflow code', "import { invoiceLifecycle } from '../workflows/invoice-lifecycle';\nexport const w = invoiceLifecycle;\n", PATHS],
      ['the gateway', "import { createApp } from '../api/app';\nexport const a = createApp;\n", PATHS],
      ['raw SQL', withHandles("await db.raw('select 1');"), SQL],
    ],
    legal: `import type { Db } from '../shared/db/knex';
import { planInvoiceStep } from '../shared/domain/invoices/lifecycle';
import type { InvoiceStepPlan } from '../shared/temporal/invoice-lifecycle/contract';
import type { ActivityDeps } from './deps';
export const probe = (db: Db, deps: ActivityDeps): Promise<InvoiceStepPlan> => planInvoiceStep(db ?? deps.db, 'team', 'invoice');
`,
  },
  {
    name: 'shared/db (the bottom layer)',
    file: 'shared/db/probe.ts',
    breaches: [
      [
        'a resource of shared/domain',
        "import { invoiceTotals } from '../domain/invoices/totals';\nexport const t = invoiceTotals;\n",
        PATHS,
      ],
      ['shared/domain/common', "import { isUuid } from '../domain/common/uuid';\nexport const u = isUuid;\n", PATHS],
      [
        'the Temporal contract',
        "import { invoiceLifecycleContract } from '../temporal/invoice-lifecycle/contract';\nexport const c = invoiceLifecycleContract;\n",
        PATHS,
      ],
    ],
    legal: `import type { Db } from './knex';
import { acrossTeams } from './team-wall';
import { Invoice } from './models';
import type { Logger } from '../logger';
export const probe = (db: Db, logger: Logger) => [acrossTeams, Invoice, db, logger];
`,
  },
  {
    name: 'shared/domain/common',
    file: 'shared/domain/common/probe.ts',
    breaches: [
      ['a resource', "import { invoiceTotals } from '../invoices/totals';\nexport const t = invoiceTotals;\n", PATHS],
      ['a type of a resource', "import type { InvoiceDto } from '../invoices/schema';\nexport type I = InvoiceDto;\n", PATHS],
    ],
    legal: `import { z } from 'zod';
import { MONEY_LIMIT } from './money';
import type { Db } from '../../db/knex';
export const probe = (db: Db) => [z, MONEY_LIMIT, db];
`,
  },
  {
    name: 'a resource of shared/domain',
    file: 'shared/domain/invoices/probe.ts',
    breaches: [
      [
        'workflow code',
        "import { invoiceLifecycle } from '../../../workflows/invoice-lifecycle';\nexport const w = invoiceLifecycle;\n",
        PATHS,
      ],
      ['activities/', "import { createActivities } from '../../../activities';\nexport const a = createActivities;\n", PATHS],
      ['the gateway', "import { createApp } from '../../../api/app';\nexport const a = createApp;\n", PATHS],
    ],
    legal: `import { currencyCode } from '../common/currency';
import { roundMoney } from '../currencies/money';
import { Invoice } from '../../db/models';
import { invoiceLifecycleContract } from '../../temporal/invoice-lifecycle/contract';
export const probe = [currencyCode, roundMoney, Invoice, invoiceLifecycleContract];
`,
  },
  {
    name: 'shared/temporal (the contract)',
    file: 'shared/temporal/probe.ts',
    breaches: [
      [
        'a service of shared/domain',
        "import { invoiceTotals } from '../domain/invoices/totals';\nexport const t = invoiceTotals;\n",
        PATHS,
      ],
      ['a model', "import { Invoice } from '../db/models';\nexport const m = Invoice;\n", PATHS],
      [
        'workflow code',
        "import { invoiceLifecycle } from '../../workflows/invoice-lifecycle';\nexport const w = invoiceLifecycle;\n",
        PATHS,
      ],
    ],
    legal: `import type { Workflow } from '@temporalio/common';
import { defineSignal } from '@temporalio/workflow';
import { Stage } from './search-attribute-keys';
export const probe = [defineSignal, Stage];
export type W = Workflow;
`,
  },
  {
    // A real file, since the rule follows imports on disk: cursor.ts imports isUuid from uuid.ts, so
    // uuid.ts importing a value of cursor.ts closes a loop.
    name: 'a cycle',
    file: 'shared/domain/common/uuid.ts',
    breaches: [
      [
        'a value import back from a module that imports this one',
        "import { encodeCursor } from './cursor';\nexport const e = encodeCursor;\n",
        CYCLE,
      ],
    ],
    legal: `import type { Page } from './cursor';
import { MONEY_LIMIT } from './money';
export type P = Page<string>;
export const probe = MONEY_LIMIT;
`,
  },
];

let eslint: ESLint;

/** What the layer rules report on `code` as the text of `file`; a probe that does not parse fails the test. */
async function lint(file: string, code: string): Promise<Linter.LintMessage[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, file) });
  const fatal = result.messages.filter((m) => m.fatal);
  if (fatal.length > 0) throw new Error(`${file}: ${fatal.map((m) => m.message).join('; ')}`);
  return result.messages;
}

const shown = (messages: Linter.LintMessage[]) => messages.map((m) => `${m.line}: ${m.ruleId ?? '(none)'}: ${m.message}`);

beforeAll(() => {
  eslint = new ESLint({
    cwd: ROOT,
    overrideConfig: { languageOptions: { parserOptions: { projectService: false } } },
    ruleFilter: ({ ruleId }) => LAYER_RULES.has(ruleId),
  });
});

describe.each(LAYERS)('$name', ({ file, breaches, legal }) => {
  it.each(breaches)('flags %s', async (_what, code, rule) => {
    const messages = await lint(file, code);
    expect(messages.map((m) => m.ruleId)).toContain(rule);
  });

  it('lets through what the layer may do', async () => {
    const rules = new Set(breaches.map(([, , rule]) => rule));
    const messages = await lint(file, legal);
    expect(shown(messages.filter((m) => m.ruleId !== null && rules.has(m.ruleId)))).toEqual([]);
  });
});
