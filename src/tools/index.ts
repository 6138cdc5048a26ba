import { analyzeBotting } from './analyze-botting.js';
import { checkHealth } from './check-health.js';
import { checkWatchlistTool } from './check-watchlist.js';
import { getActivityHeatmap } from './get-activity-heatmap.js';
import { getAnalyticsOverview } from './get-analytics-overview.js';
import { getCreatorFees } from './get-creator-fees.js';
import { getStreamerCore } from './get-streamer-core.js';
import { getStreamerSessions } from './get-streamer-sessions.js';
import { getStreamersAnalytics } from './get-streamers-analytics.js';
import { getStreamersComplete } from './get-streamers-complete.js';
import { getTokenHistory, HISTORY_API } from './get-token-history.js';
import { investigateBotting } from './investigate-botting.js';
import { listStreamers } from './list-streamers.js';
import { runAnalysisTool } from './run-analysis.js';
import type { Tool } from './tool.js';
import { watchlist } from './watchlist.js';

/** The endpoint tools, one per upstream endpoint: also run_analysis's `api`. */
const ENDPOINTS: readonly Tool[] = [
  listStreamers,
  getStreamerCore,
  getStreamerSessions,
  getStreamersAnalytics,
  getStreamersComplete,
  analyzeBotting,
  getCreatorFees,
  getAnalyticsOverview,
  getActivityHeatmap,
  checkHealth,
];

/** The only registry: every tool the server offers, in the order clients list them. */
export const TOOLS: readonly Tool[] = [
  ...ENDPOINTS,
  investigateBotting,
  runAnalysisTool(ENDPOINTS, HISTORY_API),
  // History: what this server has seen, kept per API key (src/store).
  watchlist,
  checkWatchlistTool,
  getTokenHistory,
];
