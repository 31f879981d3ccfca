/**
 * Bounds the cost of `match`/`imatch` filters where Postgres cannot. On PostgreSQL a pathological
 * pattern from anon is cancelled by the role's statement_timeout (3 s) while other requests run on
 * other connections. PGlite runs one statement at a time and ignores statement_timeout, so one slow
 * regex would stall every request until it finished. Postgres's regex engine matches in linear-ish
 * time except where it must backtrack: backreferences (`\1`), and quantified groups that themselves
 * contain quantifiers (`(a+)+`, `(.*){2,}`), whose cost grows polynomially or worse with the text;
 * compiling also grows with the pattern's length. Those are refused here, on PGlite only, with a 400
 * that says why; `like`/`ilike` and ordinary patterns pass.
 */
import { RestError } from './errors'
import type { Condition } from './filter-parser'
import { readQuery } from './query-bag'

export const MAX_PATTERN_LENGTH = 200

export function assertBoundedPatterns(query: URLSearchParams, skip: Set<string> = new Set()): void {
  if (![...query.values()].some((v) => /match[.(]/.test(v))) return
  let bag
  try {
    bag = readQuery(query, skip)
  } catch {
    // Malformed filters are the planner's to report, with PostgREST's own error.
    return
  }
  for (const node of bag.values()) walk(node.conditions)
}

function walk(conditions: Condition[]) {
  for (const c of conditions) {
    if (c.kind === 'logic') walk(c.children)
    else if (c.op === 'match' || c.op === 'imatch') {
      // `match(any).{a,b}` carries its patterns in the list.
      const problem = (c.quantifier ? (c.list ?? []) : [c.value]).map(patternProblem).find(Boolean)
      if (problem) {
        throw new RestError(
          400,
          'PGRST100',
          `This ${c.op} pattern is not allowed: ${problem}`,
          'This server runs one statement at a time and cannot cancel it, so it refuses patterns whose matching time has no bound.',
          `Use like or ilike, or a ${c.op} pattern of at most ${MAX_PATTERN_LENGTH} characters without backreferences or repeated groups that contain repetition.`,
        )
      }
    }
  }
}

const QUANTIFIER = new Set(['*', '+', '?', '{'])

/** Why a pattern is refused, or null when it is bounded. */
export function patternProblem(pattern: string): string | null {
  if (pattern.length > MAX_PATTERN_LENGTH) return `it is longer than ${MAX_PATTERN_LENGTH} characters`
  // One entry per open group: whether something inside it repeats.
  const groups: boolean[] = [false]
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i]
    if (ch === '\\') {
      if (/[1-9]/.test(pattern[i + 1] ?? '')) return 'it uses a backreference'
      i++
    } else if (ch === '[') {
      i = bracketEnd(pattern, i)
    } else if (ch === '(') {
      groups.push(false)
      if (pattern[i + 1] === '?') i++ // (?:  (?=  (?!  (?<=: not a quantifier
    } else if (ch === ')') {
      const repeatsInside = groups.length > 1 ? groups.pop()! : false
      const repeated = QUANTIFIER.has(pattern[i + 1] ?? '')
      if (repeated && repeatsInside) return 'it repeats a group that contains repetition'
      if (repeatsInside || repeated) groups[groups.length - 1] = true
    } else if (QUANTIFIER.has(ch)) {
      groups[groups.length - 1] = true
    }
  }
  return null
}

/** The index of the `]` closing the bracket expression opened at `start` (a leading `]` is literal). */
function bracketEnd(pattern: string, start: number): number {
  let i = start + 1
  if (pattern[i] === '^') i++
  if (pattern[i] === ']') i++
  for (; i < pattern.length; i++) {
    const ch = pattern[i]
    if (ch === '[' && /[:.=]/.test(pattern[i + 1] ?? '')) {
      const close = pattern.indexOf(`${pattern[i + 1]}]`, i + 2)
      if (close < 0) return pattern.length
      i = close + 1
    } else if (ch === '\\') i++
    else if (ch === ']') return i
  }
  return pattern.length
}
