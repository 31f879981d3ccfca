/** `/newsletters` and `/campaigns` ('Browse Newsletters', SPEC §2): pick newsletters, subscribe once. */
import { NewsletterBrowser } from '@/features/newsletters/components/newsletter-browser'
import { SubscribeForm } from '@/features/subscriptions/components/subscribe-form'
import { useSubscribedNewsletters } from '@/features/subscriptions/lib/use-subscribed-newsletters'

export default function NewslettersPage() {
  const subscribed = useSubscribedNewsletters()
  return (
    <NewsletterBrowser
      subscribedIds={subscribed.ids}
      renderSubscribe={(selected, clear) => (
        <SubscribeForm
          newsletters={selected}
          onSubscribed={() => {
            subscribed.refresh()
            clear()
          }}
        />
      )}
    />
  )
}
