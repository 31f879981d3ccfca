/**
 * Resolves an embedded resource (`profiles`, `profiles!campaigns_advertiser_id_fkey`, `advertiser_id`) to
 * a foreign key, the way PostgREST does: many-to-one when the parent holds the key (an object), one-to-many
 * when the target holds it (an array, or an object when the key is also unique there).
 */
import { RestError } from './errors'
import type { ForeignKey, SchemaCache, Table } from './schema-cache'

export type Relationship = {
  fk: ForeignKey
  target: Table
  /** Columns on the parent and the target that must be equal, pairwise. */
  parentColumns: string[]
  targetColumns: string[]
  toOne: boolean
}

const sameSet = (a: string[], b: string[]) => a.length === b.length && a.every((c) => b.includes(c))

export function resolveRelationship(schema: SchemaCache, parent: Table, name: string, hint?: string): Relationship {
  const candidates: Relationship[] = []
  for (const fk of schema.foreignKeys) {
    const viaName = fk.name === name || (fk.table === parent.name && fk.columns.length === 1 && fk.columns[0] === name)
    if (fk.table === parent.name && (fk.refTable === name || viaName)) {
      const target = schema.tables.get(fk.refTable)
      if (target) candidates.push({ fk, target, parentColumns: fk.columns, targetColumns: fk.refColumns, toOne: true })
    }
    if (fk.refTable === parent.name && (fk.table === name || fk.name === name) && !(fk.table === fk.refTable && viaName)) {
      const target = schema.tables.get(fk.table)
      if (target) {
        const unique = target.uniqueKeys.some((k) => sameSet(k, fk.columns))
        candidates.push({ fk, target, parentColumns: fk.refColumns, targetColumns: fk.columns, toOne: unique })
      }
    }
  }
  const matching = hint
    ? candidates.filter((c) => c.fk.name === hint || c.fk.columns.includes(hint) || c.fk.refColumns.includes(hint) && c.fk.columns.length === 1)
    : candidates
  // A self-reference matches in both directions; like PostgREST, a column or key hint means many-to-one.
  const unique = matching.length === 2 && matching[0].fk === matching[1].fk ? [matching.find((c) => c.toOne)!] : matching
  if (unique.length === 1) return unique[0]
  if (unique.length === 0) {
    throw new RestError(
      400,
      'PGRST200',
      `Could not find a relationship between '${parent.name}' and '${name}' in the schema cache`,
      `Searched for a foreign key relationship between '${parent.name}' and '${name}'${hint ? ` using the hint '${hint}'` : ''} in the schema 'public', but no matches were found.`,
      null,
    )
  }
  throw new RestError(
    300,
    'PGRST201',
    `Could not embed because more than one relationship was found for '${parent.name}' and '${name}'`,
    unique.map((c) => `${c.fk.table} -> ${c.fk.refTable} using ${c.fk.name}`).join('; '),
    `Try changing '${name}' to one of the following: ${unique.map((c) => `'${name}!${c.fk.name}'`).join(', ')}. Find the desired relationship in the 'details' key.`,
  )
}
