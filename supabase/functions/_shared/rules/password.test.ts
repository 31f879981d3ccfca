// Password rules, the one module the sign-up, reset and account forms and the auth server share: each message says
// what to do, a server's weak_password reasons read as the form's own sentence, and GoTrue's words are kept.
import { describe, expect, it } from 'vitest'
import {
  goTrueWeakPasswordMessage,
  newPasswordProblem,
  passwordAdvice,
  passwordHint,
  passwordRuleReasons,
  REQUIRED_CHARACTER_SETS,
  weakPasswordSentence,
} from '@rules/password'
import { isLeakedPassword, leakedPasswordProblem } from '@rules/leaked-passwords'
import { weakPasswordText } from '@/lib/password-check'

describe('password rules', () => {
  it('say what to do: 8 characters, no required kinds, not a leaked password', () => {
    expect(passwordAdvice()).toEqual({
      missing: 'Choose a password.',
      rule: 'Use at least 8 characters.',
      tooLong: 'Use at most 72 characters.',
      pwned: 'This password appears in lists of leaked passwords. Choose another.',
    })
    expect(passwordHint()).toBe('At least 8 characters, not a common or leaked password.')
  })

  it('name the character kinds when config.toml asks for them', () => {
    const rules = { minLength: 8, requirements: 'letters_digits' } as const
    expect(passwordAdvice(rules).rule).toBe('Use at least 8 characters with letters and numbers.')
    expect(newPasswordProblem('growletter-demo', rules)).toBe('Use at least 8 characters with letters and numbers.')
    expect(newPasswordProblem('growletter-demo-1', rules)).toBeNull()
    expect(passwordAdvice({ minLength: 10, requirements: 'lower_upper_letters_digits_symbols' }).rule).toBe(
      'Use at least 10 characters with lower-case and upper-case letters, numbers and symbols.',
    )
  })

  it('give the reasons GoTrue gives, in its order and words', () => {
    const sets = REQUIRED_CHARACTER_SETS.letters_digits
    expect(passwordRuleReasons('abc', 8, sets)).toEqual(['length', 'characters'])
    expect(goTrueWeakPasswordMessage('length', 8, sets)).toBe('Password should be at least 8 characters.')
    expect(goTrueWeakPasswordMessage('characters', 8, sets)).toBe(
      'Password should contain at least one character of each: abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ, 0123456789.',
    )
    expect(goTrueWeakPasswordMessage('pwned', 8, sets)).toBe(
      'Password is known to be weak and easy to guess, please choose a different one.',
    )
  })

  it("read a server's reasons as the form's sentence: the rule first, else the list", () => {
    expect(weakPasswordSentence(['length', 'pwned'])).toBe('Use at least 8 characters.')
    expect(weakPasswordSentence(['characters'])).toBe('Use at least 8 characters.')
    expect(weakPasswordSentence(['pwned'])).toBe(passwordAdvice().pwned)
    expect(weakPasswordText({ code: 'weak_password', reasons: ['pwned'], message: 'Password is known…' })).toBe(
      passwordAdvice().pwned,
    )
    expect(weakPasswordText({ code: 'same_password', message: 'New password should be different' })).toBeNull()
  })

  it('refuse `password` and `12345678` through the list, whatever the case; let the demo password through', () => {
    expect(leakedPasswordProblem('password')).toBe(passwordAdvice().pwned)
    expect(leakedPasswordProblem('12345678')).toBe(passwordAdvice().pwned)
    expect(isLeakedPassword('PassWord')).toBe(true)
    expect(leakedPasswordProblem('growletter-demo')).toBeNull()
  })
})
