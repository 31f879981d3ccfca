/** `/earn/{unifiedCode}`: the magic-link entry (SPEC §2, §4). */
import { useParams } from 'react-router-dom'
import { MagicLinkRedirect } from '@/features/magic-link/components/magic-link-redirect'

export default function EarnPage() {
  const { unifiedCode } = useParams()
  return <MagicLinkRedirect code={unifiedCode} />
}
