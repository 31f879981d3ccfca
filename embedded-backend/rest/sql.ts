/**
 * SQL text helpers. Identifiers reach SQL only after the schema cache has confirmed them, and then always
 * double-quoted; values reach SQL only as bound parameters, sent as text and cast to the column's type.
 */
export const ident = (name: string) => `"${name.replace(/"/g, '""')}"`

/** `"schema"."name"` of a table or view from the schema cache. */
export const qualified = (t: { schema: string; name: string }) => `${ident(t.schema)}.${ident(t.name)}`

/** `"schema"."name"` of a function from the schema cache. */
export const functionName = qualified

/** The bound values of one statement; `add` returns the placeholder. */
export class Params {
  readonly values: (string | null)[] = []
  add(value: string | null): string {
    this.values.push(value)
    return `$${this.values.length}`
  }
  /** A value as text cast to a catalog type name (from format_type, so it is safe to splice). */
  typed(value: string | null, type: string): string {
    return `${this.add(value)}::text::${type}`
  }
}

/** Hands out the table aliases of one statement: t0 for the root, t1… for embeds, e1… for their joins. */
export class Aliases {
  private n = 0
  next(prefix: string): string {
    this.n += 1
    return `${prefix}${this.n}`
  }
}
