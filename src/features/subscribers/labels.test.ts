// What the subscribers screen says about each subscriber and about a webhook URL before the database checks it.
import { describe, expect, it } from 'vitest'
import { chargeLabel } from '@/features/subscribers/components/subscriber-list'
import { readerStatus } from '@/lib/vocabulary'
import { webhookUrlProblem as webhookUrlError } from '@rules/webhook-url'

describe('chargeLabel', () => {
  it('says what was paid, why nothing was, or that a direct subscriber is free', () => {
    expect(chargeLabel({ counted: true, price: 2.5, reason_label: null, source_name: 'X' })).toBe('Paid 2.50 credits')
    expect(
      chargeLabel({ counted: false, price: null, reason_label: 'Disposable email address', source_name: 'X' }),
    ).toBe('Not charged: Disposable email address')
    expect(chargeLabel({ counted: false, price: null, reason_label: null, source_name: null })).toBe('Free (no source)')
  })

  it('names a refunded reader as refunded, not rejected (issue 38)', () => {
    expect(
      chargeLabel({
        counted: false,
        price: null,
        reason_label: 'Refunded during screening (fraud or dispute)',
        source_name: 'X',
        not_counted_reason: 'refunded',
      }),
    ).toBe('Charge given back during screening')
    expect(readerStatus('rejected', 'refunded')).toEqual({ label: 'Refunded', tone: 'red' })
    expect(readerStatus('rejected', null).label).toBe('Rejected')
  })
})

describe('webhookUrlError', () => {
  it.each([
    ['', 'Enter the URL that should receive the webhooks'],
    ['example.com/hook', 'Enter a full URL, such as https://example.com/webhooks'],
    ['http://example.com/hook', 'The URL must start with https://'],
    ['https://example.com/hook', null],
    ['http://127.0.0.1:8787/hook', null],
  ])('%j → %j', (url, message) => {
    expect(webhookUrlError(url)).toBe(message)
  })
})
