// The streamer core record (document: "Streamer core record").
export type StreamerRecord = { mintId: string; [field: string]: unknown };

export const liveText = (v: unknown) => (v === true ? 'LIVE' : v === false ? 'off' : '?');
