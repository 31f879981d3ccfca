/**
 * Prints isbot's bot pattern translated to a PostgreSQL regular expression (ARE), for the migration that
 * defines public.is_bot_user_agent: clicks are judged inside the database, where isbot cannot run.
 * JavaScript's \b (word boundary) is \y in PostgreSQL, where \b means backspace; the rest of isbot's syntax
 * (lookahead, lookbehind, non-capturing groups, \d \s \w) means the same in both.
 * Usage: node scripts/isbot-sql-pattern.mjs   (after upgrading isbot, write a new migration with the output)
 */
import { getPattern } from 'isbot'

export function toPostgresPattern(source) {
  let out = ''
  let inBracket = false
  let lastWasShorthand = false
  for (let i = 0; i < source.length; i++) {
    const ch = source[i]
    if (ch === '\\' && i + 1 < source.length) {
      const next = source[i + 1]
      out += next === 'b' && !inBracket ? '\\y' : ch + next
      lastWasShorthand = inBracket && 'dws'.includes(next)
      i++
      continue
    }
    if (inBracket && ch === '-' && (lastWasShorthand || /^\\[dws]/.test(source.slice(i + 1, i + 3)))) {
      // JavaScript reads [\d-.] as a literal '-'; PostgreSQL sees a range from a class and refuses it.
      out += '\\-'
    } else {
      if (ch === '[' && !inBracket) inBracket = true
      else if (ch === ']' && inBracket) inBracket = false
      out += ch
    }
    lastWasShorthand = false
  }
  return out
}

if (import.meta.url === `file://${process.argv[1]}`) {
  process.stdout.write(toPostgresPattern(getPattern().source) + '\n')
}
