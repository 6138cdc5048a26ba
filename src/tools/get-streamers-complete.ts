import { renderGenericBatch } from '../format/batch.js';
import { batchOutput } from './batch-output.js';
import { idsOf, otherChainHint, SCOPES } from './shared.js';
import { defineTool } from './tool.js';

export const getStreamersComplete = defineTool({
  name: 'get_streamers_complete',
  title: 'Complete streamer data (batch)',
  description:
    'Everything the service holds on some tokens, every field, long series summarised. For core records, list_streamers. detailed: series in full.',
  endpoint: 'complete',
  input: { mintIds: idsOf('complete') },
  output: batchOutput,
  render: (body, args, ctx) =>
    renderGenericBatch(
      {
        what: 'Complete streamer data',
        scope: `${args.chain} / ${args.platform}`,
        query: { chain: args.chain, platform: args.platform },
        hint: otherChainHint('get_streamers_complete', SCOPES.noPlatformC, args, args.mintIds.length),
      },
      body,
      args.mintIds,
      ctx.format,
    ),
});
