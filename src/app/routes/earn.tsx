/**
 * `/earn/{unifiedCode}`: the magic-link entry (SPEC §2, §4). People arrive here from outside the app, so
 * `src/main.tsx` already starts the newsletter list's chunk (where almost every visit ends) with this page's.
 */
import { useParams } from 'react-router-dom'
import { MagicLinkRedirect } from '@/features/magic-link/components/magic-link-redirect'

export default function EarnPage() {
  const { unifiedCode } = useParams()
  return <MagicLinkRedirect code={unifiedCode} />
}
