/**
 * /contact: a message to the team, stored in contact_messages. Signed-in users get their email filled in; a link may
 * prefill the subject and email (`?subject=…&email=…`), as the suspended account's appeal link does.
 */
import { Link, useSearchParams } from 'react-router-dom'
import { brand } from '@/config/brand'
import { paths } from '@/config/paths'
import { useSession } from '@/lib/session'
import { ContactForm } from '@/features/contact/components/contact-form'
import { ContentPage } from '@/features/content/components/content-page'

export default function ContactPage() {
  const { user } = useSession()
  const [params] = useSearchParams()
  const subject = params.get('subject')?.slice(0, 200) ?? ''
  const email = user?.email ?? params.get('email')?.slice(0, 254) ?? ''
  return (
    <ContentPage
      title="Contact us"
      intro={
        <>
          Questions about campaigns, sources, payouts or your data? Many answers are in the{' '}
          <Link to={paths.help} className="text-primary underline">
            help center
          </Link>
          ; otherwise write to us here or at {brand.supportEmail}.
        </>
      }
    >
      <ContactForm key={user?.id ?? 'visitor'} defaults={subject || email ? { subject, email } : undefined} />
    </ContentPage>
  )
}
