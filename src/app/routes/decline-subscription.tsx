/** `/decline-subscription?token=…&email=…`: the confirmation email's "Decline this newsletter" link. */
import { useSearchParams } from 'react-router-dom'
import { DeclineSubscriptionView } from '@/features/subscriptions/components/decline-subscription-view'

export default function DeclineSubscriptionPage() {
  const [params] = useSearchParams()
  return <DeclineSubscriptionView token={params.get('token')} email={params.get('email')} />
}
