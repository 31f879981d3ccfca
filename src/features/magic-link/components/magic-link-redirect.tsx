/** `/earn/{code}`: the spinner while the one backend call runs, then the SPEC §4 toast and redirect. */
import { useEffect, useRef } from 'react'
import { useNavigate, useSearchParams } from 'react-router-dom'
import { PageSpinner } from '@/components/page-spinner'
import { collectDeviceInfo, getFingerprint } from '@/lib/device-info'
import { trackAudienceSourceClick } from '../api/audience-source-click-request'
import { runMagicLinkFlow } from '../lib/magic-link-flow'
import { showMagicLinkToast } from '../lib/magic-link-toasts'

export function MagicLinkRedirect({ code }: { code: string | undefined }) {
  const navigate = useNavigate()
  const [params] = useSearchParams()
  const email = params.get('email')
  // One click per visit: StrictMode and re-renders must not record the click twice.
  const started = useRef<string | null>(null)

  useEffect(() => {
    const key = code ?? ''
    if (started.current === key) return
    started.current = key
    void runMagicLinkFlow(
      code,
      { collectDeviceInfo: () => collectDeviceInfo(getFingerprint), trackClick: trackAudienceSourceClick },
      { email },
    ).then((outcome) => {
      if (outcome.toast) showMagicLinkToast(outcome.toast)
      navigate(outcome.to, { replace: true })
    })
  }, [code, email, navigate])

  return <PageSpinner label="Redirecting to newsletters..." />
}
