import { ScheduleAlreadyRunning, ScheduleNotFoundError, type CalendarSpec, type Month, type ScheduleSpec } from '@temporalio/client';
import { TypedSearchAttributes } from '@temporalio/common';
import type { TemporalGateway } from '../client';
import { Stage, TeamId } from '../search-attribute-keys';
import type { ScheduledStart } from '../start';
import { money, summaryLine } from '../summary';
import { invoiceSeriesScheduleId, recurringInvoiceContract } from './contract';

/** What the schedule needs to know of a series: its rhythm, where the team is, and whether it runs. */
export interface SeriesRhythm {
  id: string;
  teamId: string;
  frequency: 'weekly' | 'monthly' | 'quarterly' | 'yearly';
  /** The first day (`YYYY-MM-DD`): its weekday, day of the month and month set the calendar. */
  startDate: string;
  /** The start of the first day where the team is. */
  startAt: Date;
  /** The end of the last day where the team is; none for a series without end. */
  endAt: Date | undefined;
  status: 'active' | 'paused' | 'ended';
  timezone: string;
  /** Demos and tests: every this many milliseconds instead of the calendar. */
  intervalMs?: number;
  /**
   * When the series was made: the demo interval counts from it. Counted from the epoch instead, a
   * series made just before a boundary would issue its second invoice moments after its first.
   */
  createdAt?: Date;
}

const MONTHS: Month[] = [
  'JANUARY',
  'FEBRUARY',
  'MARCH',
  'APRIL',
  'MAY',
  'JUNE',
  'JULY',
  'AUGUST',
  'SEPTEMBER',
  'OCTOBER',
  'NOVEMBER',
  'DECEMBER',
];
const WEEKDAYS = ['SUNDAY', 'MONDAY', 'TUESDAY', 'WEDNESDAY', 'THURSDAY', 'FRIDAY', 'SATURDAY'] as const;
/** Invoices go out in the morning where the team is. */
const ISSUE_HOUR = 8;

function calendarFor(s: SeriesRhythm): CalendarSpec {
  const start = new Date(`${s.startDate}T00:00:00Z`);
  // Days 29–31 do not come every month: such a series issues on the 28th, so no month is skipped.
  const dayOfMonth = Math.min(start.getUTCDate(), 28);
  const month = start.getUTCMonth();
  switch (s.frequency) {
    case 'weekly':
      return { dayOfWeek: WEEKDAYS[start.getUTCDay()], hour: ISSUE_HOUR, comment: 'weekly' };
    case 'monthly':
      return { dayOfMonth, hour: ISSUE_HOUR, comment: 'monthly' };
    case 'quarterly':
      return { month: [0, 3, 6, 9].map((q) => MONTHS[(month + q) % 12]), dayOfMonth, hour: ISSUE_HOUR, comment: 'quarterly' };
    case 'yearly':
      return { month: MONTHS[month], dayOfMonth, hour: ISSUE_HOUR, comment: 'yearly' };
  }
}

/** The schedule's spec for a series: what the schedule runs on, and what its next issue is computed from. */
export function seriesScheduleSpec(s: SeriesRhythm): ScheduleSpec {
  if (s.intervalMs) {
    // Temporal takes the offset in whole seconds, below the interval.
    const offset = s.createdAt ? Math.floor((s.createdAt.getTime() % s.intervalMs) / 1000) * 1000 : 0;
    return { intervals: [{ every: s.intervalMs, offset }], endAt: s.endAt };
  }
  return { calendars: [calendarFor(s)], timezone: s.timezone, startAt: s.startAt, endAt: s.endAt };
}

/** What a series' runs are listed by: the series, its customer, and what each invoice comes to. */
export interface SeriesAbout {
  name: string;
  customerName: string | null;
  amount: number;
  currency: string;
}

/** `Invoice series · Retainer · Kunde GmbH · €690.20 monthly` */
const summaryOf = (s: SeriesRhythm, about: SeriesAbout) =>
  summaryLine('Invoice series', about.name, about.customerName, `${money(about.amount, about.currency)} ${s.frequency}`);

const actionFor = (temporal: TemporalGateway, s: SeriesRhythm, about: SeriesAbout): ScheduledStart => ({
  type: 'startWorkflow',
  workflowType: recurringInvoiceContract.workflowType,
  workflowId: invoiceSeriesScheduleId(s.id),
  taskQueue: temporal.options.taskQueue,
  args: [{ teamId: s.teamId, seriesId: s.id }],
  typedSearchAttributes: new TypedSearchAttributes([
    { key: TeamId, value: s.teamId },
    { key: Stage, value: 'issuing' },
  ]),
  staticSummary: summaryOf(s, about),
});

/**
 * Creates the series' schedule, or brings an existing one in line with the series (rhythm, end,
 * paused or not). `issueNow`: the first invoice goes at once (a series that starts today).
 */
export async function keepInvoiceSeriesScheduled(
  temporal: TemporalGateway,
  s: SeriesRhythm,
  about: SeriesAbout,
  issueNow = false,
): Promise<void> {
  const client = await temporal.client();
  const scheduleId = invoiceSeriesScheduleId(s.id);
  const spec = seriesScheduleSpec(s);
  const action = actionFor(temporal, s, about);
  const paused = s.status !== 'active';
  try {
    await client.schedule.create({
      scheduleId,
      spec,
      action,
      // A run still delivering (a mail server retrying) holds the next period back, it does not drop it.
      policies: { overlap: 'BUFFER_ONE', catchupWindow: '1 day' },
      state: { paused, triggerImmediately: issueNow && !paused, note: paused ? 'paused by the team' : undefined },
    });
  } catch (err) {
    if (!(err instanceof ScheduleAlreadyRunning)) throw err;
    const handle = client.schedule.getHandle(scheduleId);
    await handle.update((prev) => ({ ...prev, spec, action }));
    const { state } = await handle.describe();
    if (paused && !state.paused) await handle.pause('paused by the team');
    if (!paused && state.paused) await handle.unpause('resumed by the team');
  }
}

/** Removes the series' schedule; false when it had none. */
export async function removeInvoiceSeriesSchedule(temporal: TemporalGateway, seriesId: string): Promise<boolean> {
  try {
    await (await temporal.client()).schedule.getHandle(invoiceSeriesScheduleId(seriesId)).delete();
    return true;
  } catch (err) {
    if (err instanceof ScheduleNotFoundError) return false;
    throw err;
  }
}
