/** /help: answers for advertisers, influencers and subscribers. */
import { Link } from 'react-router-dom'
import { brand } from '@/config/brand'
import { paths } from '@/config/paths'
import { MAX_DEPOSIT, MIN_DEPOSIT } from '@rules/deposit'
import { numberText } from '@rules/numbers'
import { MIN_PAYOUT } from '@rules/payout'
import { PRICE_RANGE_TEXT } from '@rules/price'
import { ContentPage, ContentSection, Question } from '@/features/content/components/content-page'
import { CONFIRMED } from '@/lib/metrics'

export default function HelpPage() {
  return (
    <ContentPage
      title="Help Center"
      intro={
        <>
          Answers to the questions we hear most. Still stuck?{' '}
          <Link to={paths.contact} className="text-primary underline">
            Contact us
          </Link>
          .
        </>
      }
    >
      <ContentSection title="For advertisers">
        <Question q="How do I list my newsletter?">
          <p>
            Create an advertiser account, open your dashboard and choose “Submit newsletter”. Give it a name, a
            description, an image, a category, your website, the price you pay per subscriber ({PRICE_RANGE_TEXT}{' '}
            credits) and a budget. A person reviews every newsletter before it goes live.
          </p>
        </Question>
        <Question q="What exactly do I pay for?">
          <p>
            Only for confirmed subscribers who came through an approved influencer’s link. A subscriber is confirmed
            when they click the link in our confirmation email (double opt-in). Subscribers who found you without a link
            are free.
          </p>
        </Question>
        <Question q="What counts as a confirmed subscriber?">
          {/* The one definition every screen's "Confirmed subscribers" uses (src/lib/metrics.ts). */}
          <p>{CONFIRMED}</p>
        </Question>
        <Question q="How do credits and the wallet work?">
          <p>
            1 credit = 1 US dollar. Advertisers start with a one-time 10-credit bonus. Add credits from the wallet page
            ({numberText(MIN_DEPOSIT)} to {numberText(MAX_DEPOSIT)} per payment). When a subscriber confirms, the price
            is put on hold for a 7-day screening period and then charged; if they unsubscribe or are rejected as fraud
            during screening, you get it back.
          </p>
        </Question>
        <Question q="Why did my campaign stop showing?">
          <p>
            A campaign pauses itself when its remaining budget or your available balance cannot pay for one more
            subscriber. Your dashboard tells you which.
          </p>
        </Question>
      </ContentSection>
      <ContentSection title="For influencers">
        <Question q="How do I start earning?">
          <p>
            Create an influencer account and add your audience sources: an X account, a newsletter, a YouTube channel, a
            product or a website. Once a source is approved you get its magic link; share it with your audience.
          </p>
        </Question>
        <Question q="How much do I earn, and when?">
          <p>
            For every confirmed subscriber your link brings, you earn the newsletter’s price minus a 20% platform fee.
            Earnings are pending during the 7-day screening, then available. You can request a payout from{' '}
            {numberText(MIN_PAYOUT)} available credits.
          </p>
        </Question>
        <Question q="Why was a click or subscriber not counted?">
          <p>
            Each one carries a reason: bot user agents, link previews, the same visitor on the same source within an
            hour, an inactive source, rate limits, referring yourself, disposable or repeated email addresses, and
            confirmations that came too fast to be a person. Your stats show totals for each reason.
          </p>
        </Question>
      </ContentSection>
      <ContentSection title="For subscribers">
        <Question q="Why did I get a confirmation email?">
          <p>
            Because someone (hopefully you) asked to subscribe to a newsletter with your address. Nothing happens until
            you click the link; if it was not you, ignore the email. Confirmation links work once and expire after 48
            hours.
          </p>
        </Question>
        <Question q="How do I unsubscribe?">
          <p>
            Every newsletter you confirmed includes an unsubscribe link. You can also write to us and we will remove
            you.
          </p>
        </Question>
        <Question q="What do you do with my data?">
          <p>
            Read our <Link to={paths.privacy}>privacy policy</Link>. In short: your email goes only to the newsletters
            you confirmed, and raw IP addresses are deleted after 30 days.
          </p>
        </Question>
      </ContentSection>
      <ContentSection title="Your account">
        <Question q="I did not receive the confirmation email">
          <p>
            Check your spam folder, then log in: you will be offered to send it again. You can also reset your password
            from the <Link to={paths.forgotPassword}>forgot password</Link> page, which proves you own the address too.
          </p>
        </Question>
        <Question q="Can I protect my account with a second factor?">
          <p>
            Yes: open <Link to={paths.account}>Account</Link> (from the avatar menu, or the menu on a phone), choose
            “Set up two-factor sign-in” and scan the QR code with an authenticator app.
          </p>
        </Question>
        <Question q={`Who runs ${brand.name}?`}>
          <p>
            See the <Link to={paths.about}>about page</Link>, or write to {brand.supportEmail}.
          </p>
        </Question>
      </ContentSection>
    </ContentPage>
  )
}
