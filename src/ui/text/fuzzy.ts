/**
 * A fuzzy matcher ranked like fzf's (its v1 algorithm with the path scheme's bonuses): the query's
 * characters must appear in order; matches at word starts (after `/`, `_`, `-`, `.`, a space, or a
 * lower→upper case change) and runs of consecutive characters score higher, gaps cost. Smart case:
 * an upper-case letter in the query makes it case-sensitive. `@hel` finds `src/hello.ts`.
 */
const SCORE_MATCH = 16;
const GAP_START = -3;
const GAP_EXTENSION = -1;
const BONUS_BOUNDARY = 8;
const BONUS_SLASH = 9;
const BONUS_CAMEL = 7;
const BONUS_CONSECUTIVE = 4;
const BONUS_FIRST_CHAR_MULTIPLIER = 2;

export interface FuzzyMatch {
  score: number;
  /** Indexes of the matched characters in the text. */
  positions: number[];
}

function bonusAt(text: string, i: number): number {
  if (i === 0) return BONUS_BOUNDARY;
  const prev = text[i - 1]!;
  const c = text[i]!;
  if (prev === '/') return BONUS_SLASH;
  if (/[\s_\-.:]/.test(prev)) return BONUS_BOUNDARY;
  if (/[a-z]/.test(prev) && /[A-Z]/.test(c)) return BONUS_CAMEL;
  if (/[^0-9]/.test(prev) && /[0-9]/.test(c)) return BONUS_CAMEL;
  return 0;
}

/** The match of `query` in `text`, or undefined when its characters do not all appear in order. */
export function fuzzyMatch(query: string, text: string): FuzzyMatch | undefined {
  if (!query) return { score: 0, positions: [] };
  const sensitive = query !== query.toLowerCase();
  const t = sensitive ? text : text.toLowerCase();
  const q = sensitive ? query : query.toLowerCase();
  // Forward: the first place the whole query fits; backward from its end: the shortest window.
  let qi = 0;
  let end = -1;
  for (let i = 0; i < t.length; i++) {
    if (t[i] === q[qi] && ++qi === q.length) {
      end = i;
      break;
    }
  }
  if (end < 0) return undefined;
  let start = end;
  qi = q.length - 1;
  for (let i = end; i >= 0; i--) {
    if (t[i] === q[qi]) {
      start = i;
      if (--qi < 0) break;
    }
  }
  // Score the window left to right, greedily taking each query character at its first place.
  const positions: number[] = [];
  let score = 0;
  let inGap = false;
  let consecutive = 0;
  let firstBonus = 0;
  qi = 0;
  for (let i = start; i <= end && qi < q.length; i++) {
    if (t[i] === q[qi]) {
      let bonus = bonusAt(text, i);
      if (consecutive === 0) firstBonus = bonus;
      else {
        // A run keeps the bonus of its first character (as fzf does), at least the consecutive one.
        bonus = Math.max(bonus, firstBonus, BONUS_CONSECUTIVE);
      }
      score += SCORE_MATCH + (qi === 0 ? bonus * BONUS_FIRST_CHAR_MULTIPLIER : bonus);
      positions.push(i);
      consecutive++;
      inGap = false;
      qi++;
    } else {
      score += inGap ? GAP_EXTENSION : GAP_START;
      inGap = true;
      consecutive = 0;
      firstBonus = 0;
    }
  }
  return { score, positions };
}

/**
 * `items` that match `query`, best first: by group (lower first: git-ignored files go last), then
 * score, then the shorter text, then alphabetically (fzf's tie-breaks). At most `max`.
 */
export function fuzzyRank<T>(query: string, items: readonly T[], textOf: (item: T) => string, max = 50, groupOf: (item: T) => number = () => 0): T[] {
  const scored: Array<{ item: T; text: string; score: number; group: number }> = [];
  for (const item of items) {
    const text = textOf(item);
    const m = fuzzyMatch(query, text);
    if (m) scored.push({ item, text, score: m.score, group: groupOf(item) });
  }
  scored.sort((a, b) => a.group - b.group || b.score - a.score || a.text.length - b.text.length || (a.text < b.text ? -1 : a.text > b.text ? 1 : 0));
  return scored.slice(0, max).map((s) => s.item);
}
