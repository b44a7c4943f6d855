import { readQuestion } from '../../shared/domain/chat/offline';
import { parsePeriod } from '../../shared/domain/chat/period';
import { CHAT_TOOLS } from '../../shared/domain/chat/tools';

const TODAY = '2026-11-23'; // a Monday

describe('periods named in a question', () => {
  it.each([
    ['how much last month', '2026-10-01', '2026-10-31'],
    ['this month so far', '2026-11-01', '2026-11-23'],
    ['in the previous quarter', '2026-07-01', '2026-09-30'],
    ['this quarter', '2026-10-01', '2026-11-23'],
    ['last year', '2025-01-01', '2025-12-31'],
    ['year to date', '2026-01-01', '2026-11-23'],
    ['in march', '2026-03-01', '2026-03-31'],
    ['in december', '2025-12-01', '2025-12-31'], // not yet this year: the last one
    ['feb 2024', '2024-02-01', '2024-02-29'],
    ['q3 2025', '2025-07-01', '2025-09-30'],
    ['q4', '2026-10-01', '2026-12-31'],
    ['the last 30 days', '2026-10-25', '2026-11-23'],
    ['last week', '2026-11-16', '2026-11-22'],
    ['yesterday', '2026-11-22', '2026-11-22'],
    ['in 2025', '2025-01-01', '2025-12-31'],
  ])('%j → %s to %s', (text, from, to) => {
    expect(parsePeriod(text, TODAY)?.period).toMatchObject({ from, to });
  });

  it('does not read "may" the verb as the month', () => {
    expect(parsePeriod('may i see our runway', TODAY)).toBeNull();
    expect(parsePeriod('revenue in may', TODAY)?.period).toMatchObject({ from: '2026-05-01', to: '2026-05-31' });
  });
});

describe('which tool the offline parser picks', () => {
  const pick = (text: string) => {
    const q = readQuestion(text, TODAY);
    for (const tool of CHAT_TOOLS) {
      const args = tool.understand(q);
      if (args) return [tool.name, args];
    }
    return null;
  };

  it.each([
    ['How much did we spend on software last month?', ['spending', { from: '2026-10-01', to: '2026-10-31', category: 'software' }]],
    ['What were our expenses in Q3 2025?', ['spending', { from: '2025-07-01', to: '2025-09-30' }]],
    ['How much did we pay Figma this year?', ['payments_to', { counterparty: 'Figma', from: '2026-01-01', to: '2026-11-23' }]],
    ['How much have we spent at Amazon Web Services?', ['payments_to', { counterparty: 'Amazon Web Services' }]],
    ['What is our runway?', ['runway', {}]],
    ['How long will our money last?', ['runway', {}]],
    ["What's our burn rate?", ['burn_rate', {}]],
    ['Show me cash flow for last quarter', ['cash_flow', { from: '2026-07-01', to: '2026-09-30' }]],
    ['What was our profit in March?', ['profit_and_loss', { from: '2026-03-01', to: '2026-03-31' }]],
    ['How much revenue did we make last month?', ['revenue', { from: '2026-10-01', to: '2026-10-31' }]],
    ['What was our revenue from consulting last month?', ['revenue', { from: '2026-10-01', to: '2026-10-31', category: 'consulting' }]],
    [
      'Revenue from the Consulting category in Q3 2025',
      ['revenue', { from: '2025-07-01', to: '2025-09-30', category: 'Consulting category' }],
    ],
    ['What was our profit on software this quarter?', ['profit_and_loss', { from: '2026-10-01', to: '2026-11-23', category: 'software' }]],
    ['Which invoices are overdue?', ['unpaid_invoices', { overdueOnly: true }]],
    ['Who still owes us money on invoices?', ['unpaid_invoices', { overdueOnly: false }]],
    ['Any receipts waiting?', ['receipts_waiting', {}]],
    ['How many hours did we track last week?', ['tracked_time', { from: '2026-11-16', to: '2026-11-22' }]],
    ['Show transactions from Lufthansa', ['transactions_search', { query: 'Lufthansa' }]],
    ['Why is this in Software?', ['category_why', { category: 'Software' }]],
    ['Why is GitHub in Software?', ['category_why', { query: 'GitHub', category: 'Software' }]],
    ['Why was the Lufthansa flight categorised as Travel?', ['category_why', { query: 'Lufthansa flight', category: 'Travel' }]],
    ['Find documents about the Office Lease', ['documents_search', { query: 'Office Lease' }]],
    ['Search documents for "spending plan"?', ['documents_search', { query: 'spending plan' }]],
    ['Which files were uploaded last month?', ['documents_search', { from: '2026-10-01', to: '2026-10-31' }]],
  ])('%j', (text, expected) => {
    expect(pick(text)).toEqual(expected);
  });

  it('understands nothing in small talk', () => {
    expect(pick('Tell me a joke')).toBeNull();
  });
});
