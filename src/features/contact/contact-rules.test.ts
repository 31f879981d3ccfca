import { describe, expect, it } from 'vitest'
import { validateAll, submittedValues } from '@/lib/use-form-fields'
import { contactMessageRules, type ContactMessageValues } from '@/features/contact/contact-message-rules'

const valid: ContactMessageValues = {
  name: 'Ana',
  email: 'ana@example.com',
  subject: 'Payouts',
  message: 'When are payouts sent?',
}

describe('contact message rules', () => {
  it('accept a complete message', () => {
    expect(validateAll(contactMessageRules, valid)).toEqual({})
  })

  it.each([
    ['name', '   ', 'Tell us your name.'],
    ['name', 'x'.repeat(121), 'Keep your name under 120 characters.'],
    ['email', '', 'Enter your email so we can answer.'],
    ['email', 'ana@', 'Enter a valid email address, like name@example.com.'],
    ['email', `${'a'.repeat(250)}@example.com`, 'That email address is too long.'],
    ['subject', '', 'Add a subject.'],
    ['subject', 'x'.repeat(201), 'Keep the subject under 200 characters.'],
    ['message', 'too short', 'Write at least 10 characters so we can help.'],
    ['message', 'x'.repeat(5001), 'Keep your message under 5,000 characters.'],
  ] as const)('%s %j says %s', (field, value, message) => {
    expect(validateAll(contactMessageRules, { ...valid, [field]: value })[field]).toBe(message)
  })

  it('submit every field trimmed, as the table stores them', () => {
    expect(submittedValues(contactMessageRules, { ...valid, name: '  Ana  ', subject: ' Payouts ' })).toMatchObject({
      name: 'Ana',
      subject: 'Payouts',
    })
  })
})
