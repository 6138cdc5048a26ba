// The one table of what a field's name is taken to mean: a value is read by what it is first, and a name
// only breaks a tie the value cannot settle (an epoch-range number under `updatedAt` is a time).

/** `Time` counts only after a word naming an event (`totalStreamingTime` is a duration). */
const TIME =
  /(^|[_\-. ])(ts|timestamp|epoch|at|date|since|until|when)$|[a-z0-9](At|Ts|Epoch|Date|Timestamp|Since|Until)$|(^|[_\-. ]|[a-z0-9])(start|end|begin|finish|create|created|update|updated|modified|seen|check|checked|sample|sampled|observed|event|last|first)[_\-. ]?time$/i;

export const NAMES = {
  time: (name: string) => TIME.test(name),
  /** A year's digits are never grouped. */
  year: (name: string) => /(^|[_\-. ])year$|[a-z0-9]Year$|^year$/i.test(name),
  /** The field a viewer curve draws (the document names none). */
  audience: (name: string) => /view|watch|audience|spectat|concurrent|ccu/i.test(name),
  /** A cell of an "a-b" keyed grid (a heatmap's `"0-13"`; the keys' meaning is not stated). */
  cell: (name: string) => /^-?\d+-(-?\d+)$/.test(name),
  /** A mean the upstream computed: merged by weight, never summed. */
  average: (name: string) => /^average/i.test(name),
  /** A `false` under one of these is a state that is not ok (/health). */
  ok: (name: string) =>
    /^(ok|healthy|up|pass(ed|ing)?|available|reachable|connected|operational|alive|ready)$/i.test(name),
  /** Not a message even when it is a string. */
  notMessage: (name: string) =>
    /^(success|status|code|type|kind|timestamp|time|at)$|id$|address$/i.test(name),
  /** A batch element's id, tried when no requested id is found in it. */
  id: ['mintId', 'mint', 'tokenAddress', 'address', 'id'] as readonly string[],
  /** Tried first for a message (then any string, breadth first). */
  message: ['error', 'message', 'msg', 'detail', 'reason', 'title', 'description'] as readonly string[],
} as const;
