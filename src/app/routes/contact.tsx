/** /contact: a message to the team, stored in contact_messages. Signed-in users get their email filled in. */
import { Link } from 'react-router-dom'
import { brand } from '@/config/brand'
import { paths } from '@/config/paths'
import { useSession } from '@/lib/session'
import { ContactForm } from '@/features/contact/components/contact-form'
import { ContentPage } from '@/features/content/components/content-page'

export default function ContactPage() {
  const { user } = useSession()
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
      <ContactForm key={user?.id ?? 'visitor'} defaults={user?.email ? { email: user.email } : undefined} />
    </ContentPage>
  )
}
