// Deposit limits, the one module the deposit dialog and create-checkout-session share: the bounds are inclusive,
// a typed amount and a JSON amount get the same words, and the messages name the bounds they enforce.
import { describe, expect, it } from 'vitest'
import {
  DEPOSIT_MESSAGES,
  DEPOSIT_SQL_MESSAGE,
  MAX_DEPOSIT,
  MIN_DEPOSIT,
  depositAmountProblem,
  depositTextProblem,
  parseDepositAmount,
} from '@rules/deposit'

describe('deposit limits', () => {
  it('are 10 to 10,000 credits, written the same in every message', () => {
    expect([MIN_DEPOSIT, MAX_DEPOSIT]).toEqual([10, 10_000])
    expect(DEPOSIT_MESSAGES.missing).toBe('Enter an amount between 10 and 10,000 credits.')
    expect(DEPOSIT_MESSAGES.tooSmall).toBe('The minimum deposit is 10 credits.')
    expect(DEPOSIT_MESSAGES.tooLarge).toBe('The maximum deposit is 10,000 credits per payment.')
    expect(DEPOSIT_SQL_MESSAGE).toBe('Deposits must be between 10 and 10,000 credits')
  })

  it('accept both bounds and refuse a cent beyond either', () => {
    expect(depositAmountProblem(MIN_DEPOSIT)).toBeNull()
    expect(depositAmountProblem(MAX_DEPOSIT)).toBeNull()
    expect(depositAmountProblem(MIN_DEPOSIT - 0.01)).toBe(DEPOSIT_MESSAGES.tooSmall)
    expect(depositAmountProblem(MAX_DEPOSIT + 0.01)).toBe(DEPOSIT_MESSAGES.tooLarge)
    expect(depositAmountProblem(Number.NaN)).toBe(DEPOSIT_MESSAGES.notNumber)
  })

  it('allow two decimals, despite float noise, and refuse a third', () => {
    expect(depositAmountProblem(19.99)).toBeNull()
    expect(depositAmountProblem(25.505)).toBe(DEPOSIT_MESSAGES.decimals)
  })

  it.each([
    ['', DEPOSIT_MESSAGES.missing],
    ['   ', DEPOSIT_MESSAGES.missing],
    ['abc', DEPOSIT_MESSAGES.notNumber],
    ['1,000', DEPOSIT_MESSAGES.notNumber],
    ['9.99', DEPOSIT_MESSAGES.tooSmall],
    ['-25', DEPOSIT_MESSAGES.tooSmall],
    ['10000.01', DEPOSIT_MESSAGES.tooLarge],
    ['25.500', DEPOSIT_MESSAGES.decimals],
    [' 25.50 ', null],
    ['10000', null],
  ])('judge the typed amount %j as %j', (typed, message) => {
    expect(depositTextProblem(typed)).toBe(message)
  })

  it.each([
    [undefined, { error: DEPOSIT_MESSAGES.missing }],
    [null, { error: DEPOSIT_MESSAGES.missing }],
    ['', { error: DEPOSIT_MESSAGES.missing }],
    ['25', { error: DEPOSIT_MESSAGES.notNumber }],
    [Number.POSITIVE_INFINITY, { error: DEPOSIT_MESSAGES.notNumber }],
    [9.99, { error: DEPOSIT_MESSAGES.tooSmall }],
    [10_000.01, { error: DEPOSIT_MESSAGES.tooLarge }],
    [25.505, { error: DEPOSIT_MESSAGES.decimals }],
    [19.99, { cents: 1999 }],
    [10_000, { cents: 1_000_000 }],
  ])('turn the request amount %j into %j', (value, result) => {
    expect(parseDepositAmount(value)).toEqual(result)
  })
})
