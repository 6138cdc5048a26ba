import { requestFor } from '../api/endpoints.js';
import { renderGenericBatch } from '../format/batch.js';
import { batchOutput } from './batch-output.js';
import { idsOf, otherChainHint, SCOPES } from './shared.js';
import { defineTool } from './tool.js';

export const getStreamersComplete = defineTool({
  name: 'get_streamers_complete',
  title: 'Complete streamer data (batch)',
  description:
    'Everything the service holds on some tokens, every field, long series summarised. For core records, list_streamers. detailed: series in full.',
  input: { mintIds: idsOf('complete') },
  scope: SCOPES.noPlatformC,
  ids: 'mintIds',
  output: batchOutput,
  request: ({ mintIds, chain, platform }) => requestFor('complete', { mintIds, chain, platform }),
  render: (body, { mintIds, chain, platform }, ctx) =>
    renderGenericBatch(
      {
        what: 'Complete streamer data',
        scope: `${chain} / ${platform}`,
        query: { chain, platform },
        hint: (n) =>
          otherChainHint('get_streamers_complete', chain, platform, SCOPES.noPlatformC, n, mintIds.length),
      },
      body,
      mintIds,
      ctx.format === 'detailed',
      ctx.budget,
    ),
});
