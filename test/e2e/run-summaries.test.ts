import { workflowMetadataQuery } from '@temporalio/workflow';
import { exportTransactionsId } from '../../shared/temporal/export-transactions/contract';
import { importTransactionsId } from '../../shared/temporal/import-transactions/contract';
import { invoiceLifecycleId } from '../../shared/temporal/invoice-lifecycle/contract';
import { bankSyncScheduleId } from '../../shared/temporal/scheduled-bank-sync/contract';
import { syncConnectionId } from '../../shared/temporal/sync-connection/contract';
import { teamDeletionId } from '../../shared/temporal/team-deletion/contract';
import { weeklyInsightsScheduleId } from '../../shared/temporal/weekly-insights/contract';
import { startBankAFake, type BankAFake } from '../fakes/bank-a';
import { startSmtpSink, type SmtpSink } from '../fakes/smtp-sink';
import { GENERATED_CSV_MAPPING, generatedCsv } from '../fixtures/statements';
import { sendJson, statusAndBody } from '../support/api';
import { insertTransactions } from '../support/fixtures';
import { withStack } from '../support/stack';

/**
 * What the Temporal UI lists a run by, as an operator sees it: every run started through the API
 * carries a one-line summary of what it is about, the schedules' runs theirs, and the long runs say
 * how far they got in their current details.
 */
let smtp: SmtpSink;
let bankA: BankAFake;
beforeAll(async () => {
  smtp = await startSmtpSink();
  bankA = await startBankAFake();
});
afterAll(async () => {
  await smtp?.close();
  await bankA?.close();
});
const stack = withStack('run-summaries', () => ({ SMTP_URL: smtp.url, BANK_A_API_URL: bankA.url, TEAM_DELETION_BATCH_SIZE: '5' }));

const json = (method: string, path: string, body?: unknown) =>
  sendJson(stack.api, method, path, stack.acme.sessionToken, body).then(statusAndBody);
const client = () => stack.api.deps.temporal.client();
const summaryOf = async (workflowId: string) => (await (await client()).workflow.getHandle(workflowId).describe()).staticSummary();
/** The run's current details, through the query every workflow answers (Temporal answers it on closed runs too). */
const currentDetailsOf = async (workflowId: string) =>
  (await (await client()).workflow.getHandle(workflowId).query(workflowMetadataQuery)).currentDetails;
const finished = (workflowId: string) => stack.worker.client.workflow.getHandle(workflowId).result();

describe('runs at a glance in the Temporal UI', () => {
  it('lists an invoice run by its number, customer, amount and due date', async () => {
    const customer = (await json('POST', '/customers', { name: 'Kunde GmbH', billingEmail: 'billing@kunde.example' })).body.data;
    const draft = await json('POST', '/invoices', {
      currency: 'EUR',
      customerId: customer.id,
      dueDate: '2027-01-12',
      lineItems: [{ name: 'Consulting', quantity: 1, price: 580, vatRate: 19 }],
    });
    expect(draft.status).toBe(201);
    const invoice = draft.body.data;
    const sent = await json('POST', `/invoices/${invoice.id}/send`);
    expect(sent.status).toBe(200);

    expect(await summaryOf(invoiceLifecycleId(invoice.id))).toBe(
      `Invoice ${sent.body.data.invoiceNumber} · Kunde GmbH · €690.20 · due 12 Jan 2027`,
    );
  }, 30_000);

  it('lists a bank sync, and each run of its schedule, by the bank and the provider', async () => {
    const item = bankA.addItem({ accountName: 'Business Checking' });
    const linked = await json('POST', '/bank-connections', { provider: 'bank-a', publicToken: item.publicToken });
    expect(linked.status).toBe(201);
    const connectionId: string = linked.body.data.id;

    expect(await summaryOf(syncConnectionId(connectionId))).toBe('Sync · First Platypus Bank · bank-a');
    const schedule = await (await client()).schedule.getHandle(bankSyncScheduleId(connectionId)).describe();
    expect(schedule.action.staticSummary).toBe('Scheduled sync · First Platypus Bank · bank-a');
    await finished(syncConnectionId(connectionId));
    expect((await json('DELETE', `/bank-connections/${connectionId}`)).status).toBe(204);
  }, 60_000);

  it('lists an import by its file and account, and says how many rows it imported', async () => {
    const [account] = await stack.tdb
      .db('bank_accounts')
      .insert({ teamId: stack.acme.team.id, name: 'Business Checking', currency: 'EUR', manual: true })
      .returning<{ id: string }[]>('id');
    const form = new FormData();
    form.append('bankAccountId', account.id);
    form.append('mapping', JSON.stringify(GENERATED_CSV_MAPPING));
    form.append('file', new Blob([generatedCsv(1_200)]), 'statement.csv');
    const res = await stack.api.fetch('/transactions/import', { method: 'POST', token: stack.acme.sessionToken, body: form });
    expect(res.status).toBe(202);
    const workflowId = importTransactionsId((await res.json()).data.id);

    expect(await summaryOf(workflowId)).toBe('Import · statement.csv · Business Checking');
    await finished(workflowId);
    expect(await currentDetailsOf(workflowId)).toBe('Imported 1,200 of 1,200 rows');
  }, 60_000);

  it('lists an export by its files and dates, and says what it wrote', async () => {
    await insertTransactions(stack.tdb.db, stack.acme.team.id, 3, '2026-06-30');
    const res = await json('POST', '/transactions/export', { filter: { from: '2026-06-01', to: '2026-06-30' }, formats: ['csv'] });
    expect(res.status).toBe(202);
    const workflowId = exportTransactionsId(res.body.data.id);

    expect(await summaryOf(workflowId)).toBe('Export · csv · 1 Jun 2026 – 30 Jun 2026');
    await finished(workflowId);
    expect(await currentDetailsOf(workflowId)).toBe('Wrote 3 transactions and 0 receipts');
  }, 60_000);

  it("lists a team's weekly schedule by the team, and its deletion with how many rows went", async () => {
    const created = await json('POST', '/teams', { name: 'Umbrella Ltd', timezone: 'Europe/Berlin' });
    expect(created.status).toBe(201);
    const teamId: string = created.body.data.id;
    const schedule = (await client()).schedule.getHandle(weeklyInsightsScheduleId(teamId));
    expect((await schedule.describe()).action.staticSummary).toBe('Weekly insights · Umbrella Ltd · Mondays 06:00 Europe/Berlin');
    // Renamed, the schedule's action is updated with it.
    expect((await json('PATCH', `/teams/${teamId}`, { name: 'Umbrella Group' })).status).toBe(200);
    expect((await schedule.describe()).action.staticSummary).toBe('Weekly insights · Umbrella Group · Mondays 06:00 Europe/Berlin');

    await insertTransactions(stack.tdb.db, teamId, 12);
    expect((await json('DELETE', `/teams/${teamId}`)).status).toBe(202);
    const workflowId = teamDeletionId(teamId);
    expect(await summaryOf(workflowId)).toBe('Team deletion · Umbrella Group');
    const progress = (await finished(workflowId)) as { deletedRows: number };
    expect(progress.deletedRows).toBeGreaterThanOrEqual(12);
    expect(await currentDetailsOf(workflowId)).toBe(`Deleted ${progress.deletedRows.toLocaleString('en')} rows and the team`);
  }, 60_000);
});
