/** `/earn/{unifiedCode}`: the magic-link entry (SPEC §2, §4). */
import { useEffect } from 'react'
import { useParams } from 'react-router-dom'
import { MagicLinkRedirect } from '@/features/magic-link/components/magic-link-redirect'

export default function EarnPage() {
  const { unifiedCode } = useParams()
  // Almost every visit ends on the newsletter list: fetch its code while the click is being recorded, so the
  // redirect does not wait for a second download after the one backend call.
  useEffect(() => {
    void import('./newsletters').catch(() => undefined)
  }, [])
  return <MagicLinkRedirect code={unifiedCode} />
}
