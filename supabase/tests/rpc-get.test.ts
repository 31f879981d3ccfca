// Replica-ready reads (issue 27): a read replica serves only GET requests, and supabase-js sends an rpc by GET only
// when it is called with `{ get: true }`. Every rpc the SPA calls is listed from its source; a read-only function
// (stable or immutable in pg_proc) must be called with GET, and a function that may write (volatile) never is
// (GET runs read-only, as PostgREST runs it: a write would fail with 25006).
import { readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { testDb } from './helpers/db'

type Call = { name: string; get: boolean; where: string }

const root = path.resolve(__dirname, '../../src')

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const full = path.join(dir, entry)
    if (statSync(full).isDirectory()) return sourceFiles(full)
    // The SPA's code, not the tests that live beside it.
    return /\.tsx?$/.test(entry) && !entry.endsWith('.d.ts') && !/\.test\.tsx?$/.test(entry) ? [full] : []
  })
}

/** The text of the call's arguments: from `.rpc(` to its closing parenthesis. */
function argumentsAt(text: string, open: number): string {
  let depth = 0
  for (let i = open; i < text.length; i++) {
    if (text[i] === '(') depth++
    else if (text[i] === ')' && --depth === 0) return text.slice(open, i + 1)
  }
  throw new Error(`unbalanced .rpc( call at ${open}`)
}

export function rpcCalls(files = sourceFiles(root)): Call[] {
  return files.flatMap((file) => {
    const text = readFileSync(file, 'utf8')
    return [...text.matchAll(/\.rpc\(\s*'([a-z0-9_]+)'/g)].map((m) => {
      const args = argumentsAt(text, m.index + m[0].indexOf('('))
      const line = text.slice(0, m.index).split('\n').length
      return { name: m[1]!, get: /\bget:\s*true\b/.test(args), where: `${path.relative(root, file)}:${line}` }
    })
  })
}

describe('the rpcs the SPA calls', () => {
  it('finds every .rpc( call, however it is laid out', () => {
    const calls = rpcCalls()
    expect(calls.length).toBeGreaterThanOrEqual(45)
    expect(calls.map((c) => c.name)).toEqual(expect.arrayContaining(['source_totals', 'figure_totals']))
  })

  it('calls every read-only function by GET, so a read replica can serve it, and no function that writes', async () => {
    const db = await testDb()
    const calls = rpcCalls()
    const { rows } = await db.query<{ name: string; volatility: string }>(
      `select p.proname as name, p.provolatile as volatility from pg_proc p
       where p.pronamespace = 'public'::regnamespace and p.proname = any ($1::text[])`,
      [[...new Set(calls.map((c) => c.name))]],
    )
    const readOnly = new Map(rows.map((r) => [r.name, r.volatility !== 'v']))
    expect(calls.filter((c) => !readOnly.has(c.name)).map((c) => c.where)).toEqual([])
    const postedReads = calls.filter((c) => readOnly.get(c.name) && !c.get).map((c) => `${c.where} ${c.name}`)
    const gotWrites = calls.filter((c) => !readOnly.get(c.name) && c.get).map((c) => `${c.where} ${c.name}`)
    expect(postedReads, 'read-only rpcs called by POST: add { get: true }').toEqual([])
    expect(gotWrites, 'rpcs that may write called by GET').toEqual([])
  })
})
