import { z } from 'zod';
import { validationError } from '../../../errors';
import { listEntriesQuery } from '../../tracker-entries/schema';
import { listEntries } from '../../tracker-entries/service';
import { listProjects } from '../../tracker-projects/service';
import { defineTool, periodArgs, periodInput, periodOf, span } from './define';

const hours = (seconds: number) => Math.round((seconds / 3600) * 10) / 10;

export const trackedTimeTool = defineTool({
  name: 'tracked_time',
  title: 'Tracked time',
  description: 'Hours tracked in a period (default: this month, at most a year), in total and by project.',
  scopes: ['tracker-entries.read', 'tracker-projects.read'],
  input: z.object({ ...periodInput, projectId: z.uuid().optional() }),
  run: async ({ db, teamId, today }, input) => {
    const period = periodOf(input, today);
    const query = listEntriesQuery.safeParse({ from: period.from, to: period.to, projectId: input.projectId });
    if (!query.success) throw validationError(query.error, 'period');
    const entries = await listEntries(db, teamId, query.data);
    const projects = await listProjects(db, teamId, { pageSize: 500 });
    const byProject = new Map<string, number>();
    for (const e of entries.data) byProject.set(e.projectId, (byProject.get(e.projectId) ?? 0) + (e.duration ?? 0));
    return {
      from: period.from,
      to: period.to,
      totalHours: hours(entries.meta.totalDuration),
      projects: [...byProject]
        .map(([projectId, seconds]) => ({
          projectId,
          name: projects.data.find((p) => p.id === projectId)?.name ?? null,
          hours: hours(seconds),
        }))
        .sort((a, b) => b.hours - a.hours),
    };
  },
  understand: (q) =>
    /\b(hours|tracked|logged|time sheets?|timesheets?)\b|\btime (did|have) we (track|log|spend)/.test(q.rest) ? periodArgs(q) : null,
  answer: (r, _input, ref) => {
    if (r.totalHours === 0) return `No time was tracked ${span(r)} [${ref}].`;
    const top = r.projects.slice(0, 5).map((p) => `${p.name ?? 'a removed project'} ${p.hours} h`);
    return `${r.totalHours} hours were tracked ${span(r)} [${ref}]: ${top.join(', ')}.`;
  },
});
