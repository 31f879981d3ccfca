import { describe, expect, it } from 'vitest'
import { validateAll, submittedValues } from '@/lib/use-form-fields'
import {
  MISSING_CREDENTIALS_MESSAGE,
  email,
  loginRules,
  name,
  requiredPassword,
  totpCode,
  userType,
  missingCredentials,
} from '@/features/auth/auth-rules'
import { confirmPassword, newPassword, newPasswordRules, registerRules } from '@/features/auth/password-rules'

describe('account form validators', () => {
  it('email: asks for it when missing (blank counts as missing), format message when malformed', () => {
    expect(email('')).toBe('Enter your email address.')
    expect(email('   ')).toBe('Enter your email address.')
    expect(email('not-an-email')).toBe('Enter a valid email address, like name@example.com.')
    expect(email('name@example')).toBe('Enter a valid email address, like name@example.com.')
    expect(email('a..b@example.com')).toBe('Enter a valid email address, like name@example.com.')
    expect(email('  name.last+tag@mail.example.co  ')).toBeNull()
  })

  it('sign-in password: only missing is an error, spaces are a password', () => {
    expect(requiredPassword('')).toBe('Enter your password.')
    expect(requiredPassword(' ')).toBeNull()
    expect(requiredPassword('x')).toBeNull()
  })

  it('new password: missing, then too short (under 8), too long (over 72 bytes), then fine (the list is on submit)', () => {
    expect(newPassword('')).toBe('Choose a password.')
    expect(newPassword('1234567')).toBe('Use at least 8 characters.')
    expect(newPassword('x'.repeat(73))).toBe('Use at most 72 characters.')
    expect(newPassword('growletter-demo')).toBeNull()
  })

  it('names: missing (blank counts), over 100 characters after trimming, fine', () => {
    const first = name('Enter your first name.')
    expect(first('  ')).toBe('Enter your first name.')
    expect(name('Enter your last name.')('')).toBe('Enter your last name.')
    expect(first('a'.repeat(101))).toBe('Keep it under 100 characters.')
    expect(first(` ${'a'.repeat(100)} `)).toBeNull()
  })

  it('user type: one of the two account types', () => {
    expect(userType('advertiser')).toBeNull()
    expect(userType('publisher')).toBeNull()
    expect(userType('admin')).toBe('Invalid input')
  })

  it('repeated password: must match a given password; a missing password has its own message', () => {
    expect(confirmPassword('other', { password: 'longenough' })).toBe('The passwords do not match.')
    expect(confirmPassword('longenough', { password: 'longenough' })).toBeNull()
    expect(confirmPassword('x', { password: '' })).toBeNull()
  })

  it('TOTP code: six digits, surrounding spaces ignored', () => {
    expect(totpCode('12345')).toBe('Enter the 6-digit code from your authenticator app.')
    expect(totpCode('12345a')).toBe('Enter the 6-digit code from your authenticator app.')
    expect(totpCode('')).toBe('Enter the 6-digit code from your authenticator app.')
    expect(totpCode(' 123456 ')).toBeNull()
  })
})

describe('account form rules', () => {
  it('login: each missing field says which it is; the SPEC §5 message is the form’s, once', () => {
    expect(validateAll(loginRules, { email: '', password: '' })).toEqual({
      email: 'Enter your email address.',
      password: 'Enter your password.',
    })
    expect(missingCredentials({ email: ' ', password: 'x' })).toBe(MISSING_CREDENTIALS_MESSAGE)
    expect(missingCredentials({ email: 'a@b.co', password: '' })).toBe(
      'You must provide either an email or phone number and a password',
    )
    expect(missingCredentials({ email: 'a@b.co', password: 'x' })).toBeNull()
  })

  it('register: every field checked, and names and email submitted trimmed', () => {
    const values = {
      userType: 'publisher',
      firstName: ' Ada ',
      lastName: '',
      email: ' ada@example.com ',
      password: 'short',
    } as const
    expect(validateAll(registerRules, values)).toEqual({
      lastName: 'Enter your last name.',
      password: 'Use at least 8 characters.',
    })
    expect(submittedValues(registerRules, { ...values, password: ' spaced password ' })).toEqual({
      userType: 'publisher',
      firstName: 'Ada',
      lastName: '',
      email: 'ada@example.com',
      password: ' spaced password ',
    })
  })

  it('new password: a short password and an empty repeat give both messages', () => {
    expect(validateAll(newPasswordRules, { password: 'short', confirm: '' })).toEqual({
      password: 'Use at least 8 characters.',
      confirm: 'The passwords do not match.',
    })
  })
})
