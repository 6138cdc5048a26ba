// What both botting tools say of an investigation, decided once: their channels and board project it.
import { failures } from '../../format/batch.js';
import {
  flaggedCounts,
  flaggedName,
  flagging,
  levelCounts,
  levelEntries,
  levelStats,
  topReasons,
} from '../../format/botting.js';
import { type BoardOptions, boardData } from '../../view-data.js';
import { notCoveredCount, notCoveredReport } from '../coverage.js';
import { otherChainHint, SCOPES } from '../shared.js';
import type { CallContext } from '../tool.js';
import type { Investigation, InvestigationArgs } from './run.js';

type Asked = Omit<InvestigationArgs, 'includeCreatorFees'>;

export function bottingFigures(tool: string, inv: Investigation, args: Asked) {
  const { findings: covered, errors, notCovered } = inv.coverage;
  const stats = levelStats(covered);
  const flagged = flagging(covered);
  const levels = levelEntries(stats, flagged);
  const reasons = topReasons(covered);
  const hint = otherChainHint(tool, SCOPES.botting, args, args.mintIds.length);
  return {
    covered,
    errors,
    notCovered,
    stats,
    flagged,
    flaggedFigures: flaggedCounts(flagged, covered),
    levels,
    reasons,
    failed: failures(errors, 'mintIds', hint),
    uncovered: notCoveredReport(inv.coverage, 'in brackets in the table'),
    /** How both headlines end: the not-covered count, then what was asked and what failed. */
    tail: `${notCovered.length ? `; ${notCoveredCount(notCovered.length)}` : ''} (${args.mintIds.length} requested, ${errors.length} failed; ${args.chain} / ${args.platform}, last ${args.hours} h)`,
    flaggedAs: flaggedName(flagged),
    counts: {
      requested: args.mintIds.length,
      analysed: covered.length,
      failed: errors.length,
      ...(inv.coverageApplies ? { notCovered: notCovered.length } : {}),
      ...levelCounts(stats),
    },
    showBoard: (
      ctx: Pick<CallContext, 'view'>,
      options: Omit<BoardOptions, 'levels' | 'topReasons' | 'hint'>,
    ) =>
      ctx.view?.(
        boardData(
          inv.coverage,
          { chain: args.chain, platform: args.platform, hours: args.hours, requested: args.mintIds.length },
          args.mintIds,
          inv.records,
          { ...options, levels, topReasons: reasons, hint },
        ),
      ),
  };
}

export type BottingFigures = ReturnType<typeof bottingFigures>;
