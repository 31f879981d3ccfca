/** /privacy: what personal data Growletter keeps, why, and for how long. */
import { Link } from 'react-router-dom'
import { brand } from '@/config/brand'
import { paths } from '@/config/paths'
import { ContentPage, ContentSection } from '@/features/content/components/content-page'

export default function PrivacyPage() {
  return (
    <ContentPage
      title="Privacy Policy"
      updated="1 November 2026"
      intro="We keep as little as we can, for as short as we can, and we tell you what it is."
    >
      <ContentSection title="What we collect">
        <ul>
          <li>
            <strong>Account holders:</strong> email address, name, account type, password (stored only as a hash),
            optional two-factor secret.
          </li>
          <li>
            <strong>Subscribers:</strong> email address and the newsletters you chose and confirmed.
          </li>
          <li>
            <strong>Clicks on magic links:</strong> time, source, browser details (user agent, language, time zone,
            screen size) and the IP address.
          </li>
          <li>
            <strong>Payments:</strong> handled by our payment provider; we keep the amount and a payment reference,
            never card numbers.
          </li>
          <li>
            <strong>Contact form:</strong> your name, email, subject and message.
          </li>
        </ul>
      </ContentSection>
      <ContentSection title="Why">
        <ul>
          <li>To run accounts, wallets and payouts.</li>
          <li>To attribute subscribers to the influencer who referred them, and to pay the right people.</li>
          <li>To detect fraud: bots, duplicate visits, self-referrals and disposable addresses.</li>
          <li>To answer your messages.</li>
        </ul>
      </ContentSection>
      <ContentSection title="How long we keep it">
        <ul>
          <li>
            Raw IP addresses: 30 days, only for fraud review. After that we keep a one-way visitor hash (IP + browser +
            a daily salt) and never the address.
          </li>
          <li>Unconfirmed subscriptions: confirmation links expire after 48 hours.</li>
          <li>Ledger entries: as long as the law requires for accounting.</li>
          <li>Accounts: until you ask us to delete them.</li>
        </ul>
      </ContentSection>
      <ContentSection title="Who sees it">
        <p>
          Advertisers receive the email addresses of subscribers who confirmed their newsletter, nothing else.
          Influencers see counts, never individual emails. We do not sell personal data.
        </p>
      </ContentSection>
      <ContentSection title="Your rights">
        <p>
          You can access, correct, export or delete your data; see <Link to={paths.gdpr}>GDPR compliance</Link>. Cookies
          are described in the <Link to={paths.cookies}>cookie policy</Link>. Questions: {brand.supportEmail}.
        </p>
      </ContentSection>
    </ContentPage>
  )
}
