import { describe, expect, it } from 'vitest'
import {
  addSubscribedNewsletters,
  readSubscribedNewsletters,
} from '@/features/subscriptions/lib/subscribed-newsletters'

const KEY = 'subscribed_newsletters'

describe('subscribed_newsletters (SPEC §3)', () => {
  it('is an empty list when nothing is stored', () => {
    expect(readSubscribedNewsletters()).toEqual([])
  })

  it('keeps ids unique when adding', () => {
    addSubscribedNewsletters(['a', 'b'])
    addSubscribedNewsletters(['b', 'c', 'c'])
    expect(JSON.parse(localStorage.getItem(KEY)!)).toEqual(['a', 'b', 'c'])
  })

  it.each([['{"a":1}'], ['"a string"'], ['42'], ['not json'], ['null']])(
    'resets a stored value that is not a list (%s) to an empty list',
    (stored) => {
      localStorage.setItem(KEY, stored)
      expect(readSubscribedNewsletters()).toEqual([])
      expect(localStorage.getItem(KEY)).toBe('[]')
      expect(addSubscribedNewsletters(['x'])).toEqual(['x'])
    },
  )
})
