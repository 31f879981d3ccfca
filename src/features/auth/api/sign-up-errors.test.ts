import { describe, expect, it } from 'vitest'
import { EMAIL_EXISTS_MESSAGE, mapSignUpError } from '@/features/auth/api/sign-up-mutation'

describe('sign-up error mapping (SPEC §8)', () => {
  it("maps 'Email already …' to EMAIL_EXISTS", () => {
    expect(mapSignUpError('Email already in use')).toEqual({
      success: false,
      errorType: 'EMAIL_EXISTS',
      message: EMAIL_EXISTS_MESSAGE,
    })
  })

  it("maps '… already registered' to EMAIL_EXISTS", () => {
    expect(mapSignUpError('User already registered').errorType).toBe('EMAIL_EXISTS')
  })

  it("prefixes anything else with 'Failed to sign up: '", () => {
    expect(mapSignUpError('Password should be at least 8 characters.')).toEqual({
      success: false,
      errorType: 'FAILED',
      message: 'Failed to sign up: Password should be at least 8 characters.',
    })
  })
})
