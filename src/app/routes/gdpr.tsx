/** /gdpr: how Growletter meets the GDPR and how to exercise your rights. */
import { Link } from 'react-router-dom'
import { brand } from '@/config/brand'
import { paths } from '@/config/paths'
import { ContentPage, ContentSection } from '@/features/content/components/content-page'

export default function GdprPage() {
  return (
    <ContentPage
      title="GDPR Compliance"
      updated="1 November 2026"
      intro={`How ${brand.name} handles personal data of people in the European Economic Area and the UK.`}
    >
      <ContentSection title="Legal bases">
        <ul>
          <li>
            <strong>Contract:</strong> running your account, wallet, campaigns, sources and payouts.
          </li>
          <li>
            <strong>Consent:</strong> newsletter subscriptions, given by confirming the email (double opt-in) and
            withdrawn by unsubscribing.
          </li>
          <li>
            <strong>Legitimate interest:</strong> fraud prevention on clicks and subscriptions, with raw IP addresses
            kept only 30 days.
          </li>
          <li>
            <strong>Legal obligation:</strong> keeping accounting records of payments.
          </li>
        </ul>
      </ContentSection>
      <ContentSection title="Your rights">
        <ul>
          <li>Access and portability: ask for a copy of your data in a machine-readable format.</li>
          <li>Rectification: correct your name in your account, or ask us.</li>
          <li>
            Erasure: ask us to delete your account and subscriptions; ledger entries are anonymised where the law
            requires us to keep them.
          </li>
          <li>
            Objection and restriction: object to fraud processing or ask us to pause it while we look into a request.
          </li>
        </ul>
        <p>
          Send requests through the <Link to={paths.contact}>contact form</Link> or to {brand.supportEmail}. We answer
          within 30 days.
        </p>
      </ContentSection>
      <ContentSection title="Data minimisation">
        <p>
          Counting a visitor uses a one-way hash of IP address, browser and a salt that changes every day, so visits
          cannot be linked across days. Advertisers get only the emails of their own confirmed subscribers; influencers
          get only counts.
        </p>
      </ContentSection>
      <ContentSection title="Processors and transfers">
        <p>
          Our database and authentication run on a managed provider; payments run through our payment provider. Both are
          bound by data processing agreements and standard contractual clauses where data leaves the EEA.
        </p>
      </ContentSection>
      <ContentSection title="Complaints">
        <p>If you are not satisfied with our answer, you may complain to your local data protection authority.</p>
      </ContentSection>
    </ContentPage>
  )
}
