/** Query keys of the account feature. */
export const accountKeys = {
  all: ['account'] as const,
  mfaFactors: () => [...accountKeys.all, 'mfa-factors'] as const,
}
