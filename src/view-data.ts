/** Where a result carries its MCP Apps view's data (read by the server and by the view). */
export const VIEW_DATA_KEY = 'streamer-analytics/view';
