/** SPEC §8 magic-link toasts, word for word. */
import { toast } from '@/lib/toast'
import { PENDING_SOURCE_LINK_TEXT } from '@/lib/source-review'
import type { MagicLinkToast } from './magic-link-flow'

export const magicLinkToastTexts = {
  unavailable: { title: 'Source Unavailable', description: 'This source is no longer available' },
  // Not SPEC words: the SPEC only knew sources that stopped working; a new source's link has not started yet.
  pending: { title: 'Source not approved yet', description: PENDING_SOURCE_LINK_TEXT },
  note: { title: 'Note', description: "We couldn't verify the referral link, but you can still browse newsletters." },
  linkError: {
    title: 'Link Error',
    description: 'There was an issue with this link, but you can still browse newsletters.',
  },
} as const

export function showMagicLinkToast(kind: MagicLinkToast) {
  const { title, description } = magicLinkToastTexts[kind]
  if (kind === 'note') toast.info(title, { description })
  else toast.error(title, { description })
}
