// The one table of what a field's name is taken to mean: a value is read by what it is first, and a name
// only breaks a tie the value cannot settle (an epoch-range number under `updatedAt` is a time).

/** Names of a point in time: `Time` only after a word naming an event (`totalStreamingTime` is a duration). */
const TIME =
  /(^|[_\-. ])(ts|timestamp|epoch|at|date|since|until|when)$|[a-z0-9](At|Ts|Epoch|Date|Timestamp|Since|Until)$|(^|[_\-. ]|[a-z0-9])(start|end|begin|finish|create|created|update|updated|modified|seen|check|checked|sample|sampled|observed|event|last|first)[_\-. ]?time$/i;

export const NAMES = {
  /** A point in time: a number there may be shown as its ISO time. */
  time: (name: string) => TIME.test(name),
  /** A year (`year`, `calendarYear`, `start_year`): its digits are never grouped. */
  year: (name: string) => /(^|[_\-. ])year$|[a-z0-9]Year$|^year$/i.test(name),
  /** An audience (the field a viewer curve draws; the document names none). */
  audience: (name: string) => /view|watch|audience|spectat|concurrent|ccu/i.test(name),
  /** A cell of an "a-b" keyed grid (`"0-13"`: day 0, hour 13 in a heatmap; the keys' meaning is not stated). */
  cell: (name: string) => /^-?\d+-(-?\d+)$/.test(name),
  /** A mean the upstream computed (`averageViewers`): merged by weight, never summed. */
  average: (name: string) => /^average/i.test(name),
  /** Says yes or no to being ok: a `false` under one of these is a state that is not ok (/health). */
  ok: (name: string) =>
    /^(ok|healthy|up|pass(ed|ing)?|available|reachable|connected|operational|alive|ready)$/i.test(name),
  /** Not a message even when it is a string: a status word, a code, a time, an id. */
  notMessage: (name: string) =>
    /^(success|status|code|type|kind|timestamp|time|at)$|id$|address$/i.test(name),
  /** The names an element of a batch answer may use for its id, tried when no requested id is given. */
  id: ['mintId', 'mint', 'tokenAddress', 'address', 'id'] as readonly string[],
  /** The names a message may have, tried first (then any string, breadth first). */
  message: ['error', 'message', 'msg', 'detail', 'reason', 'title', 'description'] as readonly string[],
} as const;
