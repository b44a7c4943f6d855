import type { TemporalGateway } from '../client';
import { Stage, TeamId } from '../search-attribute-keys';
import { startOnce } from '../start';
import { day, summaryLine } from '../summary';
import { applyRulesContract, applyRulesId, type ApplyRulesInput } from './contract';

/** The rule and the dates: `Apply rule · Coffee shops · dry run · 1 Jan 2026 – 31 Mar 2026`. */
function summaryOf(about: { ruleName: string; dryRun: boolean; from?: string; to?: string }): string {
  const { from, to } = about;
  const dates = from && to ? `${day(from)} – ${day(to)}` : from ? `from ${day(from)}` : to ? `until ${day(to)}` : 'all dates';
  return summaryLine('Apply rule', about.ruleName, about.dryRun ? 'dry run' : null, dates);
}

/** Starts the run once; returns the workflow id. */
export function startApplyRules(
  temporal: TemporalGateway,
  input: ApplyRulesInput,
  about: { ruleName: string; dryRun: boolean; from?: string; to?: string },
): Promise<string> {
  return startOnce(temporal, applyRulesContract, {
    workflowId: applyRulesId(input.runId),
    args: [input],
    searchAttributes: [
      { key: TeamId, value: input.teamId },
      { key: Stage, value: 'applying' },
    ],
    summary: summaryOf(about),
  });
}
