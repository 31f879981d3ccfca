/** /about: what Growletter is and why it works the way it does. */
import { Link } from 'react-router-dom'
import { brand } from '@/config/brand'
import { paths } from '@/config/paths'
import { ContentPage, ContentSection } from '@/features/content/components/content-page'

export default function AboutPage() {
  return (
    <ContentPage title={`About ${brand.name}`} intro={brand.tagline}>
      <ContentSection title="What we do">
        <p>
          {brand.name} is a marketplace for newsletter growth. Newsletter owners (advertisers) list their newsletter as
          a campaign and set a price per subscriber. Creators with an audience (influencers) share a magic link, and
          readers who follow it choose newsletters they want and confirm by email. The advertiser pays only for
          confirmed subscribers; the influencer earns for each one.
        </p>
      </ContentSection>
      <ContentSection title="Numbers you can explain">
        <p>
          The most common complaint about growth marketplaces is numbers nobody can explain. Every click and every
          subscription on {brand.name} is either counted or not, and when it is not, both sides see why: a bot, a
          repeated visit within the hour, a source that is not active, a disposable email address, a confirmation that
          came impossibly fast, and so on.
        </p>
      </ContentSection>
      <ContentSection title="Money that adds up">
        <p>
          Credits are dollars (1 credit = 1 US dollar). Every wallet is a ledger: each change is a row you can read, and
          the balance is always the sum of its completed rows. New subscribers are screened for 7 days before the charge
          becomes final, and a subscriber who leaves or is found to be fraudulent during screening is refunded.
        </p>
      </ContentSection>
      <ContentSection title="Get in touch">
        <p>
          Questions, partnerships or press: <Link to={paths.contact}>send us a message</Link>, or read the{' '}
          <Link to={paths.help}>help center</Link>.
        </p>
      </ContentSection>
    </ContentPage>
  )
}
