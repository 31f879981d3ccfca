import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { act, renderHook } from '@testing-library/react'
import { SEARCH_DEBOUNCE_MS, useDebouncedSearch } from '@/lib/use-debounced-search'

describe('useDebouncedSearch', () => {
  beforeEach(() => vi.useFakeTimers())
  afterEach(() => vi.useRealTimers())

  it('commits what was typed once typing pauses, not on every key', () => {
    const commit = vi.fn()
    const { result } = renderHook(() => useDebouncedSearch('', commit))
    act(() => result.current[1]('new'))
    act(() => result.current[1]('newsl'))
    act(() => vi.advanceTimersByTime(SEARCH_DEBOUNCE_MS - 1))
    expect(commit).not.toHaveBeenCalled()
    act(() => vi.advanceTimersByTime(1))
    expect(commit).toHaveBeenCalledExactlyOnceWith('newsl')
  })

  it('takes the committed value when it changes from outside (back button)', () => {
    const commit = vi.fn()
    const { result, rerender } = renderHook(({ committed }) => useDebouncedSearch(committed, commit), {
      initialProps: { committed: 'tech' },
    })
    act(() => result.current[1]('techn'))
    rerender({ committed: 'design' })
    expect(result.current[0]).toBe('design')
    act(() => vi.advanceTimersByTime(SEARCH_DEBOUNCE_MS))
    expect(commit).not.toHaveBeenCalled()
  })
})
