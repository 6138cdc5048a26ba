// "Did you mean", for the server and the guest's prelude (which inlines it: it must refer to nothing else).

// The candidates, closest to `typed` first: those that start with it (case and separators ignored), then
// that contain it, by word match (`viewerz` → currentViewers), by edit distance; ties keep their order.
export function closestFirst(typed: string, candidates: readonly string[]): string[] {
  const squash = (s: string) => `${s}`.toLowerCase().replace(/[^a-z0-9]/g, '');
  const words = (s: string) =>
    String(s)
      .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
      .toLowerCase()
      .split(/[^a-z0-9]+/)
      .filter(Boolean);
  const distance = (a: string, b: string) => {
    let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
    for (let i = 1; i <= a.length; i++) {
      const row = [i];
      for (let j = 1; j <= b.length; j++) {
        const cost = a[i - 1] === b[j - 1] ? 0 : 1;
        row[j] = Math.min((prev[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + cost);
      }
      prev = row;
    }
    return prev[b.length] ?? 0;
  };
  const n = squash(typed);
  const typedWords = words(typed);
  // Each typed word costs its distance to the nearest word of the candidate (0 when one starts with it),
  // at most its own length: a word with no counterpart costs as much as a wholly different one.
  const wordCost = (theirs: string[]) =>
    typedWords.reduce(
      (cost, w) => cost + Math.min(w.length, ...theirs.map((c) => (c.startsWith(w) ? 0 : distance(w, c)))),
      0,
    );
  return candidates
    .map((x, i) => {
      const s = squash(x);
      const tier = !n ? 2 : s.startsWith(n) ? 0 : s.includes(n) ? 1 : 2;
      return { x, i, tier, w: wordCost(words(x)), d: distance(n, s) };
    })
    .sort((p, q) => p.tier - q.tier || p.w - q.w || p.d - q.d || p.i - q.i)
    .map((p) => p.x);
}
