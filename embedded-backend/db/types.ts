/**
 * `npm run db:types`: renders src/types/database.types.ts from the database catalog in the shape
 * `supabase gen types typescript` produces, so the SPA's typed client works the same locally and hosted.
 */
import { format } from 'prettier'
import type { Db } from './database'
import { readCatalog, type Column, type FunctionArg, type FunctionInfo, type Relation } from './types-catalog'

const scalar: Record<string, string> = {
  bool: 'boolean',
  int2: 'number',
  int4: 'number',
  int8: 'number',
  float4: 'number',
  float8: 'number',
  numeric: 'number',
  json: 'Json',
  jsonb: 'Json',
  void: 'undefined',
  record: 'Record<string, unknown>',
  unknown: 'unknown',
}
const stringTypes = new Set([
  'text',
  'varchar',
  'bpchar',
  'citext',
  'uuid',
  'date',
  'time',
  'timetz',
  'timestamp',
  'timestamptz',
  'interval',
  'inet',
  'cidr',
  'macaddr',
  'bytea',
  'name',
  'tsvector',
])

function tsType(type: string, elementType: string | null, enumName: string | null = null): string {
  if (enumName) return `Database['public']['Enums']['${enumName}']${elementType ? '[]' : ''}`
  if (elementType) return `${tsType(elementType, null)}[]`
  if (stringTypes.has(type)) return 'string'
  return scalar[type] ?? 'unknown'
}

const key = (name: string) => (/^[A-Za-z_$][\w$]*$/.test(name) ? name : JSON.stringify(name))
const never = '{ [_ in never]: never }'

function columnLines(columns: Column[], mode: 'Row' | 'Insert' | 'Update'): string {
  return columns
    .map((c) => {
      const type = tsType(c.type, c.elementType, c.enumName) + (c.nullable ? ' | null' : '')
      if (mode === 'Row') return `${key(c.name)}: ${type}`
      if (c.generated) return `${key(c.name)}?: never`
      const optional = mode === 'Update' || c.nullable || c.hasDefault
      return `${key(c.name)}${optional ? '?' : ''}: ${type}`
    })
    .join('\n')
}

function relationshipsOf(relation: Relation): string {
  const items = relation.relationships.map(
    (r) => `{
      foreignKeyName: ${JSON.stringify(r.foreignKeyName)}
      columns: ${JSON.stringify(r.columns)}
      isOneToOne: ${r.isOneToOne}
      referencedRelation: ${JSON.stringify(r.referencedRelation)}
      referencedColumns: ${JSON.stringify(r.referencedColumns)}
    }`,
  )
  return `[${items.join(',\n')}]`
}

function renderRelation(relation: Relation): string {
  if (relation.kind === 'view') {
    // Views report every column as nullable, as the Supabase generator does.
    const columns = relation.columns.map((c) => ({ ...c, nullable: true }))
    return `${key(relation.name)}: {\nRow: {\n${columnLines(columns, 'Row')}\n}\nRelationships: ${relationshipsOf(relation)}\n}`
  }
  return `${key(relation.name)}: {
    Row: {\n${columnLines(relation.columns, 'Row')}\n}
    Insert: {\n${columnLines(relation.columns, 'Insert')}\n}
    Update: {\n${columnLines(relation.columns, 'Update')}\n}
    Relationships: ${relationshipsOf(relation)}
  }`
}

function argType(a: FunctionArg) {
  return tsType(a.type, a.elementType)
}

function renderSignature(fn: FunctionInfo): string {
  const args = fn.args.length
    ? `{\n${fn.args.map((a) => `${key(a.name)}${a.optional ? '?' : ''}: ${argType(a)}`).join('\n')}\n}`
    : 'never'
  let returns: string
  if (fn.tableColumns) {
    const row = `{\n${fn.tableColumns.map((a) => `${key(a.name)}: ${argType(a)}`).join('\n')}\n}`
    returns = fn.returnsSet ? `${row}[]` : row
  } else {
    const type = tsType(fn.returnType, fn.returnElementType)
    returns = fn.returnsSet ? `${type}[]` : type
  }
  return `{\nArgs: ${args}\nReturns: ${returns}\n}`
}

/** One entry per name; overloads as a union of their signatures, as `supabase gen types` writes them. */
function renderFunctions(functions: FunctionInfo[]): string[] {
  const byName = new Map<string, FunctionInfo[]>()
  for (const fn of functions) byName.set(fn.name, [...(byName.get(fn.name) ?? []), fn])
  return [...byName].map(([name, overloads]) => `${key(name)}: ${overloads.map(renderSignature).join(' | ')}`)
}

const helpers = `
type DatabaseWithoutInternals = Omit<Database, '__InternalSupabase'>

type DefaultSchema = DatabaseWithoutInternals[Extract<keyof Database, 'public'>]

export type Tables<
  DefaultSchemaTableNameOrOptions extends
    | keyof (DefaultSchema['Tables'] & DefaultSchema['Views'])
    | { schema: keyof DatabaseWithoutInternals },
  TableName extends DefaultSchemaTableNameOrOptions extends { schema: keyof DatabaseWithoutInternals }
    ? keyof (DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions['schema']]['Tables'] &
        DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions['schema']]['Views'])
    : never = never,
> = DefaultSchemaTableNameOrOptions extends { schema: keyof DatabaseWithoutInternals }
  ? (DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions['schema']]['Tables'] &
      DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions['schema']]['Views'])[TableName] extends {
      Row: infer R
    }
    ? R
    : never
  : DefaultSchemaTableNameOrOptions extends keyof (DefaultSchema['Tables'] & DefaultSchema['Views'])
    ? (DefaultSchema['Tables'] & DefaultSchema['Views'])[DefaultSchemaTableNameOrOptions] extends { Row: infer R }
      ? R
      : never
    : never

export type TablesInsert<
  DefaultSchemaTableNameOrOptions extends keyof DefaultSchema['Tables'] | { schema: keyof DatabaseWithoutInternals },
  TableName extends DefaultSchemaTableNameOrOptions extends { schema: keyof DatabaseWithoutInternals }
    ? keyof DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions['schema']]['Tables']
    : never = never,
> = DefaultSchemaTableNameOrOptions extends { schema: keyof DatabaseWithoutInternals }
  ? DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions['schema']]['Tables'][TableName] extends { Insert: infer I }
    ? I
    : never
  : DefaultSchemaTableNameOrOptions extends keyof DefaultSchema['Tables']
    ? DefaultSchema['Tables'][DefaultSchemaTableNameOrOptions] extends { Insert: infer I }
      ? I
      : never
    : never

export type TablesUpdate<
  DefaultSchemaTableNameOrOptions extends keyof DefaultSchema['Tables'] | { schema: keyof DatabaseWithoutInternals },
  TableName extends DefaultSchemaTableNameOrOptions extends { schema: keyof DatabaseWithoutInternals }
    ? keyof DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions['schema']]['Tables']
    : never = never,
> = DefaultSchemaTableNameOrOptions extends { schema: keyof DatabaseWithoutInternals }
  ? DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions['schema']]['Tables'][TableName] extends { Update: infer U }
    ? U
    : never
  : DefaultSchemaTableNameOrOptions extends keyof DefaultSchema['Tables']
    ? DefaultSchema['Tables'][DefaultSchemaTableNameOrOptions] extends { Update: infer U }
      ? U
      : never
    : never

export type Enums<
  DefaultSchemaEnumNameOrOptions extends keyof DefaultSchema['Enums'] | { schema: keyof DatabaseWithoutInternals },
  EnumName extends DefaultSchemaEnumNameOrOptions extends { schema: keyof DatabaseWithoutInternals }
    ? keyof DatabaseWithoutInternals[DefaultSchemaEnumNameOrOptions['schema']]['Enums']
    : never = never,
> = DefaultSchemaEnumNameOrOptions extends { schema: keyof DatabaseWithoutInternals }
  ? DatabaseWithoutInternals[DefaultSchemaEnumNameOrOptions['schema']]['Enums'][EnumName]
  : DefaultSchemaEnumNameOrOptions extends keyof DefaultSchema['Enums']
    ? DefaultSchema['Enums'][DefaultSchemaEnumNameOrOptions]
    : never

export type CompositeTypes<
  PublicCompositeTypeNameOrOptions extends
    | keyof DefaultSchema['CompositeTypes']
    | { schema: keyof DatabaseWithoutInternals },
  CompositeTypeName extends PublicCompositeTypeNameOrOptions extends { schema: keyof DatabaseWithoutInternals }
    ? keyof DatabaseWithoutInternals[PublicCompositeTypeNameOrOptions['schema']]['CompositeTypes']
    : never = never,
> = PublicCompositeTypeNameOrOptions extends { schema: keyof DatabaseWithoutInternals }
  ? DatabaseWithoutInternals[PublicCompositeTypeNameOrOptions['schema']]['CompositeTypes'][CompositeTypeName]
  : PublicCompositeTypeNameOrOptions extends keyof DefaultSchema['CompositeTypes']
    ? DefaultSchema['CompositeTypes'][PublicCompositeTypeNameOrOptions]
    : never
`

export async function generateTypes(db: Db): Promise<string> {
  const catalog = await readCatalog(db)
  const tables = catalog.relations.filter((r) => r.kind === 'table').map(renderRelation)
  const views = catalog.relations.filter((r) => r.kind === 'view').map(renderRelation)
  const functions = renderFunctions(catalog.functions)
  const enums = catalog.enums.map((e) => `${key(e.name)}: ${e.values.map((v) => JSON.stringify(v)).join(' | ')}`)
  const block = (items: string[]) => (items.length ? `{\n${items.join('\n')}\n}` : never)
  const source = `// Generated by \`npm run db:types\` from the database. Do not edit by hand.
export type Json = string | number | boolean | null | { [key: string]: Json | undefined } | Json[]

export type Database = {
  public: {
    Tables: ${block(tables)}
    Views: ${block(views)}
    Functions: ${block(functions)}
    Enums: ${block(enums)}
    CompositeTypes: ${never}
  }
}
${helpers}
export const Constants = {
  public: {
    Enums: {${catalog.enums.map((e) => `${key(e.name)}: ${JSON.stringify(e.values)},`).join('\n')}},
  },
} as const
`
  return format(source, { parser: 'typescript', semi: false, singleQuote: true, printWidth: 120, trailingComma: 'all' })
}
