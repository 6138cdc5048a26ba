// MCP Apps (SEP-1865): five tools name one HTML view and carry its data in `_meta`; one app-only tool.
import { readFileSync } from 'node:fs';
import {
  getUiCapability,
  RESOURCE_MIME_TYPE,
  RESOURCE_URI_META_KEY,
} from '@modelcontextprotocol/ext-apps/server';
import type { ClientCapabilities, Resource } from '@modelcontextprotocol/server';
import { getTokenEvidence } from './tools/get-token-evidence.js';
import type { Tool, ToolListEntry } from './tools/tool.js';

export { VIEW_DATA_KEY } from './view-data.js';
export const VIEW_URI = 'ui://streamer-analytics/views.html';
const WITH_VIEW = new Set(
  'investigate_botting analyze_botting get_streamers_analytics get_activity_heatmap check_watchlist'.split(
    ' ',
  ),
);
/** Tools only the view calls (`visibility: ["app"]`): the host never offers them to the model. */
const APP_TOOLS: readonly Tool[] = [getTokenEvidence];
export const APP_TOOL = new Map(APP_TOOLS.map((t) => [t.name, t]));

/** Whether the client renders MCP Apps views (it declares the extension, with our MIME type if it lists any). */
export function appsDeclared(capabilities: ClientCapabilities | undefined): boolean {
  const ui = getUiCapability(capabilities);
  return ui !== undefined && (ui.mimeTypes === undefined || ui.mimeTypes.includes(RESOURCE_MIME_TYPE));
}

/** The tools/list entries an MCP Apps client gets: the view named on five tools, the app-only tools added. */
export function appEntries(entries: readonly ToolListEntry[]): ToolListEntry[] {
  const view = { ui: { resourceUri: VIEW_URI }, [RESOURCE_URI_META_KEY]: VIEW_URI };
  return [
    ...entries.map((e) => (WITH_VIEW.has(e.name) ? { ...e, _meta: view } : e)),
    ...APP_TOOLS.map((t) => ({ ...t.entry(), _meta: { ui: { visibility: ['app'] } } })),
  ];
}

export const VIEW_RESOURCE: Resource = {
  uri: VIEW_URI,
  name: 'views',
  title: 'Streamer analytics views',
  description: 'The investigation board, the analytics chart and the activity heatmap (MCP Apps).',
  mimeType: RESOURCE_MIME_TYPE,
};

let html: string | undefined;
/** The built view: beside the bundle or one of its chunks; from the sources or dist/src, the last build's. */
function viewHtml(): string {
  if (html) return html;
  for (const path of ['./views.html', '../views.html', '../dist/server/views.html', '../server/views.html']) {
    try {
      html = readFileSync(new URL(path, import.meta.url), 'utf8');
      return html;
    } catch {}
  }
  throw new Error('the view is not built: run npm run build');
}

/** The resource's contents: one self-contained page that may reach nothing but its host. */
export function viewContents() {
  return {
    uri: VIEW_URI,
    mimeType: RESOURCE_MIME_TYPE,
    text: viewHtml(),
    _meta: { ui: { csp: { connectDomains: [], resourceDomains: [] }, prefersBorder: false } },
  };
}
