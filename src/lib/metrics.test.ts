// The catalogue of figures (src/lib/metrics.ts): each figure shown under a label comes from its one database
// function, and no screen writes a catalogued label itself. Rendering tests: src/lib/metric-screens.test.tsx.
import { readFileSync, readdirSync, statSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { metrics } from '@/lib/metrics'

const root = path.resolve(__dirname, '../..')
const types = readFileSync(path.join(root, 'src/types/database.types.ts'), 'utf8')

/** The text of one member (`name: {` … its closing brace at the same indent) of the generated types. */
function block(name: string, section: 'Functions' | 'Tables'): string | null {
  const start = types.indexOf(`    ${section}: {`)
  const at = types.indexOf(`\n      ${name}: {`, start)
  if (start < 0 || at < 0) return null
  const end = types.indexOf('\n      }', at + 1)
  return types.slice(at, end)
}

describe('the metric catalogue', () => {
  it.each(Object.entries(metrics))(
    '%s comes from a function (or table) of the database that has its column',
    (_, m) => {
      const [name, column] = m.source.split('.') as [string, string]
      const found = block(name, 'Functions') ?? block(name, 'Tables')
      expect(found, `${m.source}: no function or table named ${name} in database.types.ts`).not.toBeNull()
      expect(found).toMatch(new RegExp(`\\b${column}:`))
    },
  )

  it('gives each label one definition per source: the same label never names two functions on one screen', () => {
    const seen = new Map<string, string>()
    for (const m of Object.values(metrics))
      for (const screen of m.screens) {
        const key = `${screen}|${m.label}`
        expect(seen.get(key) ?? m.source, `${key} names two figures`).toBe(m.source)
        seen.set(key, m.source)
      }
  })
})

// The labels whose meaning the walk-through found split between screens (issue 23 point 4). A screen that shows
// one of them as a figure's label must take it from the catalogue, not write it.
const GUARDED = ['Confirmed subscribers', 'Paid subscribers', 'Counted clicks', 'Subscribers this week', 'Conversions']
const figureLabel = new RegExp(
  String.raw`(?:label=|header:\s*|title=|label:\s*|<dt[^>]*>)\s*["'{]?\s*["']?(${GUARDED.join('|')})(?:\s*\([^)]*\))?["'<]`,
)

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const full = path.join(dir, entry)
    if (statSync(full).isDirectory()) return sourceFiles(full)
    // The screens' code: tests (which live beside it) name the labels they look for.
    return /\.(tsx|ts)$/.test(entry) && !/\.test\.tsx?$/.test(entry) && !full.endsWith(path.join('lib', 'metrics.ts'))
      ? [full]
      : []
  })
}

describe('one word, one number', () => {
  it('no screen writes a catalogued figure label itself', () => {
    const offenders = sourceFiles(path.join(root, 'src'))
      .filter((file) => !file.includes(`${path.sep}types${path.sep}`))
      .flatMap((file) =>
        readFileSync(file, 'utf8')
          .split('\n')
          .map((line, i) => [line, i] as const)
          .filter(([line]) => figureLabel.test(line))
          .map(([line, i]) => `${path.relative(root, file)}:${i + 1}: ${line.trim()}`),
      )
    expect(offenders).toEqual([])
  })

  it('the guard catches a label written by hand', () => {
    expect(figureLabel.test(`<dt className="x">Subscribers this week</dt>`)).toBe(true)
    expect(figureLabel.test(`col.accessor('clicks', { header: 'Counted clicks', meta: figure }),`)).toBe(true)
    expect(figureLabel.test(`label="Confirmed subscribers"`)).toBe(true)
    expect(figureLabel.test(`label={metrics.sourceConfirmedSubscribers.label}`)).toBe(false)
  })
})
