/**
 * PostgREST's "Perhaps you meant …" hints (PGRST202, PGRST205) come from the Haskell fuzzyset 0.2 library
 * (`Fuzzy.getOne (Fuzzy.fromList names) wanted`). This is that search, so a hint names what PostgREST's would:
 * an exact (case-insensitive) name wins; otherwise the names sharing character trigrams (then bigrams, if no
 * trigram gives a result) with the wanted one are ranked by cosine similarity of their gram counts, the best 50
 * are scored again by Levenshtein similarity (1 − distance ÷ the longer length), and the best scoring at least
 * 0.33 is the answer. Grams are taken from the lower-cased name without punctuation (letters, digits, spaces
 * and commas stay), enclosed in hyphens; the Levenshtein score compares the lower-cased names as they are.
 * Ties keep the order of `names` (the library's own order for ties is a hash map's).
 */

const MIN_SCORE = 0.33

/**
 * The score a table or function *name* must reach. PostgREST's source asks fuzzyset for 0.33, yet the servers
 * behind supabase-js's suite give no hint for blurb_message (get_messages scores 0.54) or created_ago, and do
 * for polymorphic_function_with_unnamed_integer (…_text, 0.88); PostgREST's own tests hint `another` for
 * `other` (0.71). 0.7 agrees with every answer seen; parameter lists keep 0.33 (PostgREST's tests hint
 * `(a, b)` for `(a, b, smthelse)`, 0.375).
 */
export const NAME_MIN_SCORE = 0.7
const CANDIDATES = 50

const normalized = (s: string) => s.toLowerCase().replace(/[^\p{L}\p{N}\s,]/gu, '')

function gramCounts(value: string, size: number): Map<string, number> {
  const chars = Array.from(`-${normalized(value)}-`)
  const counts = new Map<string, number>()
  for (let i = 0; i + size <= chars.length; i++) {
    const gram = chars.slice(i, i + size).join('')
    counts.set(gram, (counts.get(gram) ?? 0) + 1)
  }
  return counts
}

const magnitude = (v: Map<string, number>) => Math.sqrt([...v.values()].reduce((sum, n) => sum + n * n, 0))

export function levenshtein(a: string, b: string): number {
  const x = Array.from(a)
  const y = Array.from(b)
  let previous = Array.from({ length: y.length + 1 }, (_, j) => j)
  for (let i = 1; i <= x.length; i++) {
    const current = [i]
    for (let j = 1; j <= y.length; j++) {
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (x[i - 1] === y[j - 1] ? 0 : 1))
    }
    previous = current
  }
  return previous[y.length]
}

function similarity(a: string, b: string): number {
  const longest = Math.max(Array.from(a).length, Array.from(b).length)
  return longest === 0 ? 1 : 1 - levenshtein(a, b) / longest
}

/** The closest of `names` to `wanted` as PostgREST's hints choose it, or undefined when none is close enough. */
export function closestMatch(wanted: string, names: Iterable<string>, minScore = MIN_SCORE): string | undefined {
  const byKey = new Map<string, string>()
  for (const name of names) if (!byKey.has(name.toLowerCase())) byKey.set(name.toLowerCase(), name)
  const key = wanted.toLowerCase()
  const exact = byKey.get(key)
  if (exact !== undefined) return exact
  const entries = [...byKey.keys()]
  for (const size of [3, 2]) {
    const query = gramCounts(key, size)
    const queryMagnitude = magnitude(query)
    const cosine: { entry: string; score: number }[] = []
    for (const entry of entries) {
      const grams = gramCounts(entry, size)
      let dot = 0
      for (const [gram, n] of query) dot += n * (grams.get(gram) ?? 0)
      if (dot > 0) cosine.push({ entry, score: dot / (queryMagnitude * magnitude(grams)) })
    }
    const best = cosine
      .sort((a, b) => b.score - a.score)
      .slice(0, CANDIDATES)
      .map(({ entry }) => ({ entry, score: similarity(key, entry) }))
      .sort((a, b) => b.score - a.score)
      .filter((m) => m.score >= minScore)
    if (best.length) return byKey.get(best[0].entry)
  }
  return undefined
}
