/**
 * Several statements with bound parameters in one round trip on one `pg` connection: Parse (first use
 * of a prepared statement only), Bind, Describe and Execute for each, then a single Sync. PostgreSQL
 * runs them in order and answers once, so a request transaction costs one write and one read.
 *
 * Without an explicit `begin` the statements form one implicit transaction that commits at the Sync
 * (the extended protocol's rule): the first failure skips the rest and rolls all of it back.
 *
 * A batch is a node-postgres `Query` (its extension point, the one pg-cursor uses) that writes its own
 * messages. pg's pipeline mode ends each of its queries with a Sync; a batch ends with exactly one, so
 * batches also pipeline: `Lanes` keeps a few connections in pipeline mode and writes the batches of
 * concurrent requests back to back, in one TCP write per connection and event-loop turn. Only read-only
 * batches go there (database.ts): a batch that waits on a row lock would hold up every batch behind it.
 */
import pg from 'pg'

export type BatchStatement = { text: string; values?: unknown[]; prepare?: boolean }

type Message = { fields?: unknown[]; text?: string }
type Connection = {
  parse(config: { text: string; name?: string }): void
  bind(config: { statement?: string; values?: unknown[]; valueMapper?: (value: unknown) => unknown }): void
  describe(config: { type: 'P' | 'S'; name?: string }): void
  execute(config: { portal?: string; rows?: number }): void
  sync(): void
  on(event: 'parseComplete', listener: () => void): void
  once(event: 'readyForQuery' | 'end', listener: () => void): void
  off(event: 'readyForQuery' | 'end', listener: () => void): void
  stream: { cork?(): void; uncork?(): void }
}
type PgResult = pg.QueryResult & {
  addFields(fields: unknown[]): void
  parseRow(fields: unknown[]): Record<string, unknown>
  addRow(row: Record<string, unknown>): void
  addCommandComplete(message: Message): void
}
type PgInternals = {
  Query: new (config: { text: string }) => object
  Result: new (rowMode?: string, types?: unknown) => PgResult
  utils: { prepareValue(value: unknown): unknown }
}
const { Query, Result, utils } = pg as unknown as PgInternals

/** Prepared statements kept per connection at most; past it, statements are parsed each time. */
const MAX_PREPARED_PER_CONNECTION = 500
/** One name per SQL text, shared by every connection. */
const names = new Map<string, string>()

/**
 * What one connection has prepared, and the Parse messages sent and not yet answered (in order; null
 * for an unnamed one), each with the batch that sent it.
 */
type Prepared = { done: Set<string>; pending: Array<{ batch: Batch; name: string | null }> }
const preparedOn = new WeakMap<Connection, Prepared>()

function preparedState(connection: Connection): Prepared {
  let state = preparedOn.get(connection)
  if (!state) {
    const created: Prepared = { done: new Set(), pending: [] }
    // ParseComplete answers Parse messages in order. pg's own queries on the connection never overlap a
    // batch's (outside pipeline mode one query runs at a time), so an empty list means one of theirs.
    connection.on('parseComplete', () => {
      const name = created.pending.shift()?.name
      if (name) created.done.add(name)
    })
    preparedOn.set(connection, created)
    state = created
  }
  return state
}

function nameFor(state: Prepared, text: string): { name: string; parse: boolean } | null {
  let name = names.get(text)
  if (name !== undefined && (state.done.has(name) || state.pending.some((p) => p.name === name)))
    return { name, parse: false }
  if (state.done.size + state.pending.length >= MAX_PREPARED_PER_CONNECTION) return null
  if (name === undefined) {
    // A process that has seen this many different statements stops preparing new ones.
    if (names.size >= 50_000) return null
    name = `growletter_${names.size}`
    names.set(text, name)
  }
  return { name, parse: true }
}

/** The node-postgres query that writes the batch and collects one result per statement. */
class Batch extends (Query as unknown as new (config: { text: string }) => { callback?: unknown }) {
  private readonly results: PgResult[]
  private current = 0
  private failure: Error | null = null
  private state: Prepared | null = null
  private connection: Connection | null = null
  private done = false

  constructor(
    private readonly statements: BatchStatement[],
    types: unknown,
    private readonly settle: (error: Error | null, results?: pg.QueryResult[]) => void,
  ) {
    super({ text: statements.map((s) => s.text).join(';\n') })
    this.results = statements.map(() => new Result(undefined, types))
    // pg calls `callback` on errors it raises itself (a dead connection, a client that is closing).
    this.callback = (error: Error | null) => this.finish(error ?? new Error('Query was not run'))
  }

  submit(connection: Connection) {
    this.connection = connection
    const state = (this.state = preparedState(connection))
    connection.stream.cork?.()
    try {
      for (const { text, values, prepare } of this.statements) {
        const named = prepare && values?.length ? nameFor(state, text) : null
        if (!named || named.parse) {
          connection.parse({ text, name: named?.name })
          state.pending.push({ batch: this, name: named?.name ?? null })
        }
        connection.bind({ statement: named?.name, values: values ?? [], valueMapper: utils.prepareValue })
        connection.describe({ type: 'P' })
        connection.execute({ rows: 0 })
      }
      connection.sync()
    } finally {
      connection.stream.uncork?.()
    }
    return null
  }

  handleRowDescription(message: Message) {
    this.results[this.current]?.addFields(message.fields ?? [])
  }

  handleDataRow(message: Message) {
    const result = this.results[this.current]
    if (!result || this.failure) return
    try {
      result.addRow(result.parseRow(message.fields ?? []))
    } catch (error) {
      this.failure = error as Error
    }
  }

  handleCommandComplete(message: Message) {
    this.results[this.current]?.addCommandComplete(message)
    this.current += 1
  }

  handleEmptyQuery() {
    this.current += 1
  }

  handlePortalSuspended() {}

  handleCopyInResponse() {}

  handleCopyData() {}

  handleError(error: Error) {
    // This batch's Parse messages not answered yet never will be: PostgreSQL skipped to the Sync.
    const state = this.state
    if (state) while (state.pending[0]?.batch === this) state.pending.shift()
    // The caller hears of the error once the connection is ready again, so it knows the transaction
    // status. A FATAL error or a dead socket is not followed by ReadyForQuery.
    const recoverable = (error as { severity?: string }).severity === 'ERROR'
    const connection = this.connection
    if (connection && recoverable) {
      const done = () => {
        connection.off('readyForQuery', done)
        connection.off('end', done)
        this.finish(error)
      }
      connection.once('readyForQuery', done)
      connection.once('end', done)
    } else this.finish(error)
  }

  handleReadyForQuery() {
    this.finish(this.failure)
  }

  private finish(error: Error | null) {
    if (this.done) return
    this.done = true
    if (error) this.settle(error)
    else this.settle(null, this.results)
  }
}

/**
 * Runs `statements` in one round trip on `client` and resolves to their results, or rejects with the
 * first error (after which PostgreSQL skipped the rest).
 */
export function runBatch(client: pg.ClientBase, statements: BatchStatement[]): Promise<pg.QueryResult[]> {
  const types = (client as unknown as { _types: unknown })._types
  return new Promise((resolve, reject) => {
    const batch = new Batch(statements, types, (error, results) => (error ? reject(error) : resolve(results!)))
    client.query(batch as unknown as pg.QueryConfig)
  })
}

/**
 * A few connections in pipeline mode for transactions that are one batch: each batch goes to the
 * connection with the fewest in flight, behind the ones already sent, and the batches written in one
 * event-loop turn leave in one TCP write. PostgreSQL runs each connection's batches in order, each its
 * own transaction.
 */
const MAX_IN_FLIGHT = 4

export class Lanes {
  private readonly lanes: Array<{
    client: pg.Client | null
    connecting: Promise<pg.Client> | null
    inFlight: number
    corked: boolean
  }>
  private closed = false

  constructor(
    private readonly config: pg.ClientConfig,
    count: number,
  ) {
    this.lanes = Array.from({ length: count }, () => ({ client: null, connecting: null, inFlight: 0, corked: false }))
  }

  /**
   * Runs the batch on the least busy connection, or answers null when every connection already has
   * `MAX_IN_FLIGHT` batches waiting: one slow statement holds up the batches behind it on its
   * connection, so past that depth the caller should use a connection of its own.
   */
  async run(statements: BatchStatement[]): Promise<pg.QueryResult[] | null> {
    if (this.closed) throw new Error('The database connection is closed')
    const lane = this.lanes.reduce((best, l) => (l.inFlight < best.inFlight ? l : best))
    if (lane.inFlight >= MAX_IN_FLIGHT) return null
    lane.inFlight += 1
    try {
      const client = lane.client ?? (await (lane.connecting ??= this.connect(lane)))
      const stream = (client as unknown as { connection: Connection }).connection.stream
      if (!lane.corked) {
        // Hold this turn's writes and send them together once the turn's I/O callbacks have run.
        lane.corked = true
        stream.cork?.()
        setImmediate(() => {
          lane.corked = false
          stream.uncork?.()
        })
      }
      return await runBatch(client, statements)
    } finally {
      lane.inFlight -= 1
    }
  }

  private async connect(lane: Lanes['lanes'][number]): Promise<pg.Client> {
    const client = new pg.Client({ ...this.config, pipeline: true } as pg.ClientConfig)
    const forget = () => {
      if (lane.client === client) lane.client = null
      lane.connecting = null
    }
    // A broken connection is replaced on next use; the batches in flight on it fail with its error.
    client.on('error', forget)
    client.on('end', forget)
    try {
      await client.connect()
    } catch (error) {
      forget()
      throw error
    }
    lane.client = client
    return client
  }

  async close() {
    this.closed = true
    await Promise.allSettled(this.lanes.map(async (lane) => (await lane.connecting)?.end()))
  }
}
