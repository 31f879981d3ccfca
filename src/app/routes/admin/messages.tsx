/** /dashboard/admin/messages: what visitors sent through /contact, to answer by email and mark handled. */
import { PageHeader } from '@/components/page-header'
import { ContactInbox } from '@/features/contact/components/contact-inbox'

export default function AdminMessagesPage() {
  return (
    <>
      <PageHeader
        title="Messages"
        description="What people sent through the contact page, newest first. Reply by email, then mark it handled."
      />
      <ContactInbox />
    </>
  )
}
