// The subscribe form's rule (plain validator for useFormFields): a missing and a malformed address get their
// own words, spaces around a good one do not matter, and the form submits it trimmed.
import { describe, expect, it } from 'vitest'
import { submittedValues, validateAll } from '@/lib/use-form-fields'
import { subscribeEmail, subscribeRules } from '@/features/subscriptions/subscribe-rules'

describe('subscribe rules', () => {
  it.each([
    ['', 'Please enter your email address'],
    ['   ', 'Please enter your email address'],
    ['reader@', 'Please enter a valid email address'],
    ['not-an-email', 'Please enter a valid email address'],
    ['  reader@example.com  ', null],
  ])('judge %j as %j', (value, message) => {
    expect(subscribeEmail(value)).toBe(message)
  })

  it('submit the address trimmed', () => {
    expect(validateAll(subscribeRules, { email: ' reader@example.com ' })).toEqual({})
    expect(submittedValues(subscribeRules, { email: ' reader@example.com ' })).toEqual({ email: 'reader@example.com' })
  })
})
