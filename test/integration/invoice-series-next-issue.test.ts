import { randomUUID } from 'node:crypto';
import { startOfDayIn, todayIn } from '../../shared/domain/common/time-zone';
import { nextSeriesIssueAt } from '../../shared/domain/invoice-series/next-issue';
import { addDays } from '../../shared/domain/reports/period';
import { createTemporalGateway, type TemporalGateway } from '../../shared/temporal/client';
import { keepInvoiceSeriesScheduled, type SeriesRhythm } from '../../shared/temporal/invoice-series/calls';
import { invoiceSeriesScheduleId } from '../../shared/temporal/invoice-series/contract';
import { testConfig } from '../support/api';
import { uniqueTaskQueue } from '../support/worker';

/**
 * The series list shows when each series issues next without asking Temporal per row: worked out
 * from the series' rhythm. Here each rhythm gets its real schedule on the dev server, and what the
 * schedule says it does next is what the series says.
 */
let temporal: TemporalGateway;
const made: string[] = [];
beforeAll(() => {
  const config = testConfig();
  temporal = createTemporalGateway({
    address: config.TEMPORAL_ADDRESS,
    namespace: config.TEMPORAL_NAMESPACE,
    taskQueue: uniqueTaskQueue('series-next'),
  });
});
afterAll(async () => {
  const client = await temporal?.client();
  await Promise.all(made.map((id) => client?.schedule.getHandle(invoiceSeriesScheduleId(id)).delete()));
  await temporal?.close();
});

/** The first day on or after `from` that is the 31st of its month. */
const next31st = (from: string) => {
  let day = from;
  while (!day.endsWith('-31')) day = addDays(day, 1);
  return day;
};

const rhythm = (
  frequency: SeriesRhythm['frequency'],
  timezone: string,
  startDate: string,
  more: { endDate?: string; status?: SeriesRhythm['status']; intervalMs?: number; createdAt?: Date } = {},
): SeriesRhythm => ({
  id: randomUUID(),
  teamId: randomUUID(),
  frequency,
  startDate,
  startAt: startOfDayIn(startDate, timezone),
  endAt: more.endDate ? new Date(startOfDayIn(more.endDate, timezone).getTime() + 86_400_000) : undefined,
  status: more.status ?? 'active',
  timezone,
  intervalMs: more.intervalMs,
  createdAt: more.createdAt,
});

it("computes each series' next issue as its Temporal schedule has it, for every rhythm, zone, start and end", async () => {
  const today = (tz: string) => todayIn(tz);
  const madeAt = new Date(Date.now() - 1_200_321);
  const cases: [string, SeriesRhythm][] = [
    ['weekly, starting in three days', rhythm('weekly', 'Europe/Berlin', addDays(today('Europe/Berlin'), 3))],
    ['weekly, started a month ago', rhythm('weekly', 'America/Los_Angeles', addDays(today('America/Los_Angeles'), -30))],
    ['monthly on the 31st (issued on the 28th)', rhythm('monthly', 'America/New_York', next31st(addDays(today('America/New_York'), 1)))],
    ['monthly, started in the past', rhythm('monthly', 'Pacific/Auckland', addDays(today('Pacific/Auckland'), -45))],
    ['quarterly, half-hour zone', rhythm('quarterly', 'Asia/Kolkata', addDays(today('Asia/Kolkata'), 100))],
    ['quarterly, started last year', rhythm('quarterly', 'Europe/London', addDays(today('Europe/London'), -400))],
    ['weekly, first day just after the clocks go forward', rhythm('weekly', 'Europe/Berlin', '2027-03-29')],
    ['yearly, half-hour daylight saving', rhythm('yearly', 'Australia/Lord_Howe', addDays(today('Australia/Lord_Howe'), 10))],
    ['yearly, started in the past', rhythm('yearly', 'UTC', addDays(today('UTC'), -200))],
    [
      'weekly, ending before its next day',
      rhythm('weekly', 'Europe/Berlin', addDays(today('Europe/Berlin'), -9), { endDate: addDays(today('Europe/Berlin'), -1) }),
    ],
    [
      'monthly, ending after its next day',
      rhythm('monthly', 'Asia/Tokyo', addDays(today('Asia/Tokyo'), 5), { endDate: addDays(today('Asia/Tokyo'), 60) }),
    ],
    ['the demo interval', rhythm('monthly', 'Europe/Berlin', today('Europe/Berlin'), { intervalMs: 3_000 })],
    ['an hourly demo interval', rhythm('weekly', 'UTC', today('UTC'), { intervalMs: 3_600_000 })],
    [
      'an hourly demo interval, counted from the series made 20 minutes ago',
      rhythm('weekly', 'UTC', today('UTC'), { intervalMs: 3_600_000, createdAt: madeAt }),
    ],
    ['paused', rhythm('monthly', 'Europe/Berlin', addDays(today('Europe/Berlin'), 3), { status: 'paused' })],
  ];
  const client = await temporal.client();
  const seen: [string, string | null, string | null][] = [];
  for (const [name, r] of cases) {
    await keepInvoiceSeriesScheduled(temporal, r, { name, customerName: null, amount: 100, currency: 'EUR' });
    made.push(r.id);
    const before = new Date();
    const described = await client.schedule.getHandle(invoiceSeriesScheduleId(r.id)).describe();
    const after = new Date();
    const scheduled = (described.state.paused ? null : (described.info.nextActionTimes.at(0) ?? null))?.toISOString() ?? null;
    // Temporal answered at some moment between the two reads (a 3-second interval may tick in between).
    const [early, late] = [before, after].map((now) => nextSeriesIssueAt(r, now)?.toISOString() ?? null);
    seen.push([name, scheduled, early === scheduled ? early : late]);
  }
  expect(seen.map(([name, , computed]) => [name, computed])).toEqual(seen.map(([name, scheduled]) => [name, scheduled]));
  // A demo series issues again one interval after it was made (to the second), not at the next full hour.
  const counted = seen.find(([name]) => name.includes('counted from the series'));
  expect(counted?.[1]).toBe(new Date(Math.floor(madeAt.getTime() / 1000) * 1000 + 3_600_000).toISOString());
  // The cases mean something: all but the ended and the paused one have a next issue.
  expect(seen.filter(([, scheduled]) => scheduled === null).map(([name]) => name)).toEqual([
    'weekly, ending before its next day',
    'paused',
  ]);
}, 60_000);
