/** /terms: the terms of service, in plain language. */
import { Link } from 'react-router-dom'
import { brand } from '@/config/brand'
import { paths } from '@/config/paths'
import { MAX_DEPOSIT, MIN_DEPOSIT } from '@rules/deposit'
import { numberText } from '@rules/numbers'
import { MIN_PAYOUT } from '@rules/payout'
import { ContentPage, ContentSection } from '@/features/content/components/content-page'

export default function TermsPage() {
  return (
    <ContentPage
      title="Terms of Service"
      updated="1 November 2026"
      intro={`These terms apply to everyone who uses ${brand.name}: advertisers, influencers and visitors.`}
    >
      <ContentSection title="1. Accounts">
        <ul>
          <li>
            You need a confirmed email address to use an account. Keep your password safe; you can add two-factor
            sign-in.
          </li>
          <li>Choose advertiser or influencer when you register. Admin rights are only granted by us.</li>
          <li>One person or company per account. We may suspend accounts that break these terms.</li>
        </ul>
      </ContentSection>
      <ContentSection title="2. Credits and payments">
        <ul>
          <li>
            1 credit equals 1 US dollar. Deposits are between {numberText(MIN_DEPOSIT)} and {numberText(MAX_DEPOSIT)}{' '}
            credits per payment and are processed by our payment provider.
          </li>
          <li>
            Credits are used to pay for confirmed subscribers. Unused credits can be refunded on request, minus payment
            fees.
          </li>
          <li>New advertisers receive a one-time bonus of 10 credits. Bonus credits cannot be withdrawn.</li>
        </ul>
      </ContentSection>
      <ContentSection title="3. Subscribers, screening and refunds">
        <ul>
          <li>A subscriber counts only after they confirm by email (double opt-in) through an approved source.</li>
          <li>
            Each charge is held for a 7-day screening period. Subscribers who unsubscribe or are rejected as fraud
            during screening are refunded to the advertiser.
          </li>
          <li>Clicks and subscriptions we do not count are shown with their reason; you are never billed for them.</li>
        </ul>
      </ContentSection>
      <ContentSection title="4. Influencer earnings and payouts">
        <ul>
          <li>Influencers earn the subscriber price minus a 20% platform fee, available after screening.</li>
          <li>Payouts can be requested from {numberText(MIN_PAYOUT)} available credits and are sent after review.</li>
          <li>
            Fake traffic, incentivised sign-ups, self-referrals and misleading promotion are forbidden; earnings from
            them are cancelled.
          </li>
        </ul>
      </ContentSection>
      <ContentSection title="5. Content">
        <p>
          You are responsible for the newsletters and sources you list. They must be lawful, honest about what they are,
          and respect the rights of others. We review listings and may reject, pause or ban them with a reason.
        </p>
      </ContentSection>
      <ContentSection title="6. Liability and changes">
        <p>
          We provide {brand.name} as is and do our best to keep it running and accurate. We are not liable for indirect
          losses. We may update these terms and will tell account holders by email before material changes apply.
        </p>
      </ContentSection>
      <ContentSection title="7. Contact">
        <p>
          Questions about these terms: <Link to={paths.contact}>contact us</Link> or write to {brand.supportEmail}.
        </p>
      </ContentSection>
    </ContentPage>
  )
}
