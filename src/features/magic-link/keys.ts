/** Query keys of the magic-link feature. */
export const magicLinkKeys = {
  all: ['magic-link'] as const,
  clickSession: (code: string) => [...magicLinkKeys.all, 'click-session', code.toLowerCase()] as const,
}
