/** Query keys of the auth feature; every key starts with 'auth' so one prefix invalidates them all. */
export const authKeys = {
  all: ['auth'] as const,
  mfaFactors: () => [...authKeys.all, 'mfa-factors'] as const,
}
