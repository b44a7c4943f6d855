import type { Db } from '../../db/knex';
import { Insight } from '../../db/models';
import { toIso } from '../../db/timestamps';
import { notFound } from '../../errors';
import { decodeCursor, encodeCursor, type Page } from '../common/cursor';
import { notify } from '../notifications/service';
import { detectRecurringPayments, teamToday } from '../recurring-payments/service';
import { computeWeeklySummary, weekEnd, type InsightOptions } from './compute';
import type { InsightDto, ListInsightsQuery } from './schema';

const toDto = (i: Insight): InsightDto => ({
  id: i.id,
  periodType: i.periodType,
  periodStart: i.periodStart,
  periodEnd: i.periodEnd,
  summary: i.summary,
  createdAt: toIso(i.createdAt),
  updatedAt: toIso(i.updatedAt),
});

/**
 * Computes the week's summary and keeps it: a week asked again is recomputed in place (its figures may
 * have moved). The recurring payments are detected again first, up to today, so the summary names
 * them as the transactions now stand (payments a user created by hand since the last sync included).
 */
export async function storeWeeklyInsight(db: Db, teamId: string, weekStart: string, options: InsightOptions): Promise<string> {
  await detectRecurringPayments(db, teamId, await teamToday(db, teamId));
  const summary = await computeWeeklySummary(db, teamId, weekStart, options);
  const row = await Insight.query(db)
    .insert({ teamId, periodType: 'weekly', periodStart: weekStart, periodEnd: weekEnd(weekStart), currency: summary.currency, summary })
    .onConflict(['teamId', 'periodType', 'periodStart'])
    .merge({ summary, currency: summary.currency, updatedAt: new Date() });
  return row.id;
}

/** Tells the team its summary is ready, once per week however often it is computed (the row is locked while deciding). */
export async function announceInsight(db: Db, teamId: string, insightId: string): Promise<boolean> {
  return db.transaction(async (trx) => {
    const insight = await Insight.query(trx).findOne({ teamId, id: insightId }).forUpdate();
    if (!insight) throw notFound(`insight ${insightId} not found`);
    if (insight.announcedAt) return false;
    await notify(trx, {
      teamId,
      type: 'insight_ready',
      priority: 5,
      metadata: { insightId, periodStart: insight.periodStart, periodEnd: insight.periodEnd },
    });
    await Insight.query(trx).findById(insightId).patch({ announcedAt: new Date() });
    return true;
  });
}

/** Newest week first. */
export async function listInsights(db: Db, teamId: string, query: ListInsightsQuery): Promise<Page<InsightDto>> {
  const q = Insight.query(db)
    .where({ teamId })
    .orderBy([
      { column: 'periodStart', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .limit(query.pageSize + 1);
  if (query.cursor) {
    const [start, id] = decodeCursor(query.cursor, ['date', 'uuid']);
    q.whereRaw('(period_start, id) < (?::date, ?::uuid)', [start, id]);
  }
  const rows = await q;
  const hasNextPage = rows.length > query.pageSize;
  const page = rows.slice(0, query.pageSize);
  const last = page.at(-1);
  return {
    data: page.map(toDto),
    meta: { cursor: hasNextPage && last ? encodeCursor([last.periodStart, last.id]) : null, hasNextPage },
  };
}

export async function getInsight(db: Db, teamId: string, id: string): Promise<InsightDto> {
  const insight = await Insight.query(db).findOne({ teamId, id });
  if (!insight) throw notFound(`Insight ${id} not found`);
  return toDto(insight);
}
