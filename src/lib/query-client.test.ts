/**
 * A write's invalidation must not be answered by a read that began before the write: the first read of a query
 * (no data yet) still in flight when a mutation invalidates it is cancelled and started again.
 */
import { QueryObserver } from '@tanstack/react-query'
import { describe, expect, it } from 'vitest'
import { createQueryClient } from '@/lib/query-client'

function deferred<T>() {
  let resolve!: (value: T) => void
  const promise = new Promise<T>((r) => (resolve = r))
  return { promise, resolve }
}

describe('createQueryClient', () => {
  it('reads again after a write when the first read began before it', async () => {
    const client = createQueryClient()
    let stored = 'before the write'
    const firstRead = deferred<void>()
    let reads = 0
    const observer = new QueryObserver(client, {
      queryKey: ['revision'],
      queryFn: async () => {
        reads += 1
        const seen = stored
        if (reads === 1) await firstRead.promise // the first read is slow: it saw the row before the write
        return seen
      },
    })
    const unsubscribe = observer.subscribe(() => undefined)
    await Promise.resolve()
    expect(client.getQueryState(['revision'])?.fetchStatus).toBe('fetching')

    stored = 'after the write'
    const invalidated = client.invalidateQueries({ queryKey: ['revision'] })
    firstRead.resolve()
    await invalidated

    expect(client.getQueryData(['revision'])).toBe('after the write')
    expect(reads).toBe(2)
    unsubscribe()
    client.clear()
  })

  it('leaves a read in flight alone when the invalidation refetches nothing', async () => {
    const client = createQueryClient()
    const read = deferred<void>()
    const observer = new QueryObserver(client, {
      queryKey: ['quiet'],
      queryFn: async () => {
        await read.promise
        return 'read'
      },
    })
    const unsubscribe = observer.subscribe(() => undefined)
    await Promise.resolve()
    await client.invalidateQueries({ queryKey: ['quiet'], refetchType: 'none' })
    read.resolve()
    await expect(client.fetchQuery({ queryKey: ['quiet'] })).resolves.toBe('read')
    unsubscribe()
    client.clear()
  })
})
