/** `/confirm-subscription?token=…&email=…` (SPEC §2): confirms one subscription from JavaScript. */
import { useSearchParams } from 'react-router-dom'
import { ConfirmSubscriptionView } from '@/features/subscriptions/components/confirm-subscription-view'

export default function ConfirmSubscriptionPage() {
  const [params] = useSearchParams()
  return <ConfirmSubscriptionView token={params.get('token')} email={params.get('email')} />
}
