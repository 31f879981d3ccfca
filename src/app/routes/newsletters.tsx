/** `/newsletters` and `/campaigns` ('Browse Newsletters', SPEC §2): pick newsletters, subscribe once. */
import { useEffect, useState } from 'react'
import { useSearchParams } from 'react-router-dom'
import { NewsletterBrowser } from '@/features/newsletters/components/newsletter-browser'
import { SubscribeForm } from '@/features/subscriptions/components/subscribe-form'
import { useSubscribedNewsletters } from '@/features/subscriptions/lib/use-subscribed-newsletters'

const SUBSCRIBE_FORM_ID = 'subscribe-form'

export default function NewslettersPage() {
  const subscribed = useSubscribedNewsletters()
  // `/earn/{code}?email=…` (a publisher's newsletter) lands here with the address: the form has it filled in.
  const [params, setParams] = useSearchParams()
  const [initialEmail] = useState(() => params.get('email'))
  // Kept in the form, not in the address bar (history, a shared screenshot or link).
  useEffect(() => {
    if (!initialEmail) return
    setParams(
      (current) => {
        const next = new URLSearchParams(current)
        next.delete('email')
        return next
      },
      { replace: true },
    )
  }, [initialEmail, setParams])
  return (
    <NewsletterBrowser
      subscribedIds={subscribed.ids}
      confirmedIds={subscribed.confirmedIds}
      subscribeFormId={SUBSCRIBE_FORM_ID}
      renderSubscribe={(selected, clear) => (
        <SubscribeForm
          formId={SUBSCRIBE_FORM_ID}
          newsletters={selected}
          initialEmail={initialEmail}
          onSubscribed={() => {
            subscribed.refresh()
            clear()
          }}
        />
      )}
    />
  )
}
