/** `/newsletters/unavailable`: where magic links of unusable sources land (SPEC §2). */
import { UnavailableNotice } from '@/features/magic-link/components/unavailable-notice'

export default function NewslettersUnavailablePage() {
  return <UnavailableNotice />
}
