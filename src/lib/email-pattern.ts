/**
 * The email address shape the public forms accept: the one zod's `z.email()` accepts, so no address
 * changes from valid to invalid or back between forms that use zod and forms that use plain validators.
 */
export const EMAIL_PATTERN =
  /^(?:[A-Za-z0-9_'+-]+\.)*[A-Za-z0-9_'+-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9-]*\.)+[A-Za-z]{2,}$/

export const INVALID_EMAIL_MESSAGE = 'Enter a valid email address, like name@example.com.'
