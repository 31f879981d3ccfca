/**
 * Resolves an embedded resource (`clients`, `clients!projects_client_id_fkey`, `client_id`, `fn_name`) to a
 * relationship the way PostgREST 12's `findRel` does: many-to-one and one-to-one through a foreign key the
 * parent holds, one-to-many (or one-to-one, when the key is unique) through one the target holds, many-to-many
 * through a junction table whose primary key holds both keys, and computed relationships (functions taking
 * the parent's row and returning rows of the target). Views take part through the keys of their base tables.
 */
import { RestError } from './errors'
import type { ForeignKey, FunctionDef, SchemaCache, Table } from './schema-cache'

export type Cardinality = 'many-to-one' | 'one-to-many' | 'one-to-one' | 'many-to-many' | 'computed'

export type Junction = {
  table: Table
  /** The key from the junction to the parent, and from the junction to the target. */
  toParent: ForeignKey
  toTarget: ForeignKey
}

export type Relationship = {
  cardinality: Cardinality
  target: Table
  toOne: boolean
  isSelf: boolean
  /** The foreign key (absent for computed relationships; for many-to-many, see `junction`). */
  fk?: ForeignKey
  /** Columns on the parent and the target that must be equal, pairwise (foreign-key relationships). */
  parentColumns: string[]
  targetColumns: string[]
  junction?: Junction
  fn?: FunctionDef
}

const sameSet = (a: string[], b: string[]) => a.length === b.length && a.every((c) => b.includes(c))
const within = (cols: string[], key: string[]) => key.length > 0 && cols.every((c) => key.includes(c))

/** Every relationship that starts at `parent`. */
export function relationshipsOf(schema: SchemaCache, parent: Table): Relationship[] {
  const rels: Relationship[] = []
  for (const fk of schema.foreignKeys) {
    const isSelf = fk.table === fk.refTable
    if (fk.table === parent.name) {
      const target = schema.tables.get(fk.refTable)
      if (target) {
        const unique = parent.uniqueKeys.some((k) => sameSet(k, fk.columns))
        rels.push({
          cardinality: unique ? 'one-to-one' : 'many-to-one',
          target,
          toOne: true,
          isSelf,
          fk,
          parentColumns: fk.columns,
          targetColumns: fk.refColumns,
        })
      }
    }
    if (fk.refTable === parent.name) {
      const target = schema.tables.get(fk.table)
      if (target) {
        const unique = target.uniqueKeys.some((k) => sameSet(k, fk.columns))
        rels.push({
          cardinality: unique ? 'one-to-one' : 'one-to-many',
          target,
          toOne: unique,
          isSelf,
          fk,
          parentColumns: fk.refColumns,
          targetColumns: fk.columns,
        })
      }
    }
  }
  // Many-to-many: a junction with a key to the parent and another key, both within its primary key.
  for (const toParent of schema.foreignKeys) {
    if (toParent.refTable !== parent.name) continue
    const junction = schema.tables.get(toParent.table)
    if (!junction || !within(toParent.columns, junction.primaryKey)) continue
    for (const toTarget of schema.foreignKeys) {
      if (toTarget === toParent || toTarget.table !== junction.name || toTarget.name === toParent.name) continue
      if (!within(toTarget.columns, junction.primaryKey)) continue
      const target = schema.tables.get(toTarget.refTable)
      if (!target) continue
      rels.push({
        cardinality: 'many-to-many',
        target,
        toOne: false,
        isSelf: target.name === parent.name,
        parentColumns: toParent.refColumns,
        targetColumns: toTarget.refColumns,
        junction: { table: junction, toParent, toTarget },
      })
    }
  }
  for (const defs of schema.functions.values()) {
    for (const fn of defs) {
      if (fn.rowOf !== parent.name || fn.shape !== 'composite' || !fn.table) continue
      const target = schema.tables.get(fn.table)
      if (!target) continue
      rels.push({
        cardinality: 'computed',
        target,
        toOne: !fn.returnsSet || fn.rows === 1,
        isSelf: target.name === parent.name,
        fn,
        parentColumns: [],
        targetColumns: [],
      })
    }
  }
  return rels
}

/** For single-column keys: the parent's column (`fst` in PostgREST) and the target's (`snd`). */
const singleCols = (r: Relationship): [string, string] | null =>
  r.fk && r.cardinality !== 'many-to-many' && r.parentColumns.length === 1
    ? [r.parentColumns[0], r.targetColumns[0]]
    : null

export function resolveRelationship(schema: SchemaCache, parent: Table, name: string, hint?: string): Relationship {
  const all = relationshipsOf(schema, parent)
  const computed = all.filter((r) => r.cardinality === 'computed' && r.fn!.name === name)
  // A computed relationship named like a detected one overrides it.
  const matching = computed.length
    ? computed
    : all.filter((r) => r.cardinality !== 'computed' && matches(r, name, hint))
  if (matching.length === 1) return matching[0]
  if (matching.length === 0) {
    throw new RestError(
      400,
      'PGRST200',
      `Could not find a relationship between '${parent.name}' and '${name}' in the schema cache`,
      `Searched for a foreign key relationship between '${parent.name}' and '${name}${hint ? `' using the hint '${hint}` : ''}' in the schema '${schema.schema}', but no matches were found.`,
      null,
    )
  }
  throw new RestError(
    300,
    'PGRST201',
    `Could not embed because more than one relationship was found for '${parent.name}' and '${name}'`,
    matching.map((r) => describe(parent, r)),
    `Try changing '${name}' to one of the following: ${matching.map((r) => `'${r.target.name}!${r.junction ? r.junction.table.name : r.fk!.name}'`).join(', ')}. Find the desired relationship in the 'details' key.`,
  )
}

function matches(r: Relationship, target: string, hint: string | undefined): boolean {
  const cols = singleCols(r)
  const fkSingleCol = (h: string) => cols !== null && cols[0] === h
  const fkRefSingleCol = (h: string) => cols !== null && cols[1] === h
  const constraint = (h: string) => r.cardinality !== 'many-to-many' && r.fk?.name === h
  if (r.isSelf && r.cardinality !== 'many-to-many') {
    // One key, two directions: the table name means the children, the key column the parent.
    if (hint === undefined) {
      return (
        (target === r.target.name && r.cardinality === 'one-to-many') ||
        (fkSingleCol(target) && r.cardinality === 'many-to-one')
      )
    }
    return target === r.target.name && r.cardinality === 'one-to-many' && fkRefSingleCol(hint)
  }
  const targetIsView = r.target.kind === 'view'
  if (hint === undefined) {
    return target === r.target.name || (constraint(target) && !targetIsView) || (fkSingleCol(target) && !targetIsView)
  }
  return (
    target === r.target.name &&
    (constraint(hint) || fkSingleCol(hint) || fkRefSingleCol(hint) || r.junction?.table.name === hint)
  )
}

/** PostgREST's `details` entry for one candidate of an ambiguous embed. */
function describe(parent: Table, r: Relationship) {
  const els = (cols: string[]) => `(${cols.join(', ')})`
  const embedding = `${parent.name} with ${r.target.name}`
  if (r.junction) {
    const j = r.junction
    return {
      cardinality: 'many-to-many',
      embedding,
      relationship: `${j.table.name} using ${j.toParent.name}${els(j.toParent.columns)} and ${j.toTarget.name}${els(j.toTarget.columns)}`,
    }
  }
  return {
    cardinality: r.cardinality,
    embedding,
    relationship: `${r.fk!.name} using ${parent.name}${els(r.parentColumns)} and ${r.target.name}${els(r.targetColumns)}`,
  }
}
