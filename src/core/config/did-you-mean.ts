/** The closest candidate within a small edit distance, or undefined. */
export function closest(word: string, candidates: Iterable<string>): string | undefined {
  const max = Math.max(1, Math.min(3, Math.floor(word.length / 3)));
  let best: string | undefined;
  let bestDist = max + 1;
  const lower = word.toLowerCase();
  for (const c of candidates) {
    if (Math.abs(c.length - word.length) >= bestDist) continue;
    const d = distance(lower, c.toLowerCase(), bestDist);
    if (d < bestDist) {
      best = c;
      bestDist = d;
    }
  }
  return best;
}

/** ` (did you mean 'x'?)` or ''. */
export function didYouMean(word: string, candidates: Iterable<string>): string {
  const c = closest(word, candidates);
  return c === undefined || c === word ? '' : ` (did you mean '${c}'?)`;
}

/** Damerau-Levenshtein (optimal string alignment); stops early once `limit` is reached. */
function distance(a: string, b: string, limit: number): number {
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i++) {
    const row = new Array<number>(b.length + 1);
    row[0] = i;
    rows.push(row);
  }
  for (let j = 0; j <= b.length; j++) rows[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    let rowMin = Infinity;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, rows[i - 2][j - 2] + 1);
      rows[i][j] = v;
      if (v < rowMin) rowMin = v;
    }
    if (rowMin >= limit) return limit;
  }
  return rows[a.length][b.length];
}
