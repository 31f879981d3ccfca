/** SPEC §8 confirmation texts and toasts, word for word. */
export const confirmationTexts = {
  missingToken: 'Invalid confirmation link. No token provided.',
  invalidLinkToast: 'Invalid confirmation link',
  failedToast: 'Verification failed',
  failedMessage: 'There was an error verifying your subscription.',
  expiredToast: 'Link expired',
  expiredMessage: 'Your confirmation link has expired.',
  expiredHint: 'Please subscribe again to receive a new confirmation link.',
  alreadyConfirmedToast: 'Already confirmed',
  unexpectedToast: 'Verification error',
} as const
