/** The landing page's explanations: what each side gets and how a magic link turns into subscribers. */
import { Link } from 'react-router-dom'
import {
  BadgeCheckIcon,
  CoinsIcon,
  LinkIcon,
  MailCheckIcon,
  MegaphoneIcon,
  ShieldCheckIcon,
  UsersIcon,
} from 'lucide-react'
import { Button } from '@/components/ui/button'
import { brand } from '@/config/brand'
import { paths } from '@/config/paths'
import { numberText } from '@rules/numbers'
import { MIN_PAYOUT } from '@rules/payout'

export function LandingHero() {
  return (
    <section className="flex flex-col items-center gap-6 text-center">
      <p className="rounded-full border bg-accent px-3 py-1 text-sm font-medium text-accent-foreground">
        Pay only for confirmed subscribers
      </p>
      <h1 className="max-w-3xl text-4xl font-extrabold tracking-tight sm:text-5xl">
        Grow your newsletter with creators your readers already trust
      </h1>
      <p className="max-w-2xl text-lg text-muted-foreground">{brand.tagline}</p>
      <div className="flex flex-wrap justify-center gap-3">
        <Button asChild size="lg">
          <Link to={`${paths.register}?role=advertiser`}>Grow my newsletter</Link>
        </Button>
        <Button asChild size="lg" variant="outline">
          <Link to={`${paths.register}?role=publisher`}>Earn from my audience</Link>
        </Button>
      </div>
    </section>
  )
}

const advertiserPoints = [
  {
    Icon: MailCheckIcon,
    text: 'You pay a fixed price per subscriber, and only once they confirm by email (double opt-in).',
  },
  {
    Icon: CoinsIcon,
    text: 'A prepaid credit wallet (1 credit = 1 US dollar) with every movement in a ledger you can read.',
  },
  {
    Icon: ShieldCheckIcon,
    text: 'Every click and sign-up is counted or not, with the reason: bots, duplicates and self-referrals are never billed.',
  },
]
const influencerPoints = [
  {
    Icon: LinkIcon,
    text: 'One magic link per audience source: share it on X, in your newsletter, on YouTube or your site.',
  },
  { Icon: BadgeCheckIcon, text: 'Sources are reviewed by a person, so advertisers trust your numbers.' },
  {
    Icon: CoinsIcon,
    text: `Earn the subscriber price minus a 20% platform fee, available after a 7-day screening, paid out from ${numberText(MIN_PAYOUT)} credits.`,
  },
]

function PointList({ points }: { points: typeof advertiserPoints }) {
  return (
    <ul className="flex flex-col gap-3">
      {points.map(({ Icon, text }) => (
        <li key={text} className="flex gap-3 text-sm">
          <Icon className="mt-0.5 size-5 shrink-0 text-primary" aria-hidden="true" />
          <span>{text}</span>
        </li>
      ))}
    </ul>
  )
}

export function LandingAudiences() {
  return (
    <section aria-labelledby="for-whom" className="flex flex-col gap-6">
      <h2 id="for-whom" className="sr-only">
        Who Growletter is for
      </h2>
      <div className="grid gap-6 md:grid-cols-2">
        <div className="flex flex-col gap-4 rounded-xl border bg-card p-6">
          <h3 className="flex items-center gap-2 text-xl font-bold">
            <MegaphoneIcon className="size-6 text-primary" aria-hidden="true" /> For advertisers
          </h3>
          <p className="text-muted-foreground">
            List your newsletter as a campaign, set a price per subscriber and a budget, and let creators bring you
            readers.
          </p>
          <PointList points={advertiserPoints} />
          <Button asChild className="mt-auto w-fit">
            <Link to={`${paths.register}?role=advertiser`}>Start as an advertiser</Link>
          </Button>
        </div>
        <div className="flex flex-col gap-4 rounded-xl border bg-card p-6">
          <h3 className="flex items-center gap-2 text-xl font-bold">
            <UsersIcon className="size-6 text-primary" aria-hidden="true" /> For influencers
          </h3>
          <p className="text-muted-foreground">
            Add the places where your audience is, get approved, and recommend newsletters worth reading.
          </p>
          <PointList points={influencerPoints} />
          <Button asChild className="mt-auto w-fit">
            <Link to={`${paths.register}?role=publisher`}>Start as an influencer</Link>
          </Button>
        </div>
      </div>
    </section>
  )
}

const steps = [
  { title: 'Share your magic link', text: 'Each approved source gets a link like growletter.app/earn/your-code.' },
  {
    title: 'Readers pick newsletters',
    text: 'The link opens the newsletter list, remembering which source sent the reader.',
  },
  { title: 'They confirm by email', text: 'A subscription counts only after the reader clicks the confirmation link.' },
  {
    title: 'Everyone sees the same numbers',
    text: 'The advertiser pays, the influencer earns, and both see why anything did not count.',
  },
]

export function LandingHowItWorks() {
  return (
    <section aria-labelledby="how-magic-links-work" className="flex flex-col gap-6">
      <h2 id="how-magic-links-work" className="text-2xl font-bold tracking-tight">
        How magic links work
      </h2>
      <ol className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        {steps.map((step, index) => (
          <li key={step.title} className="flex flex-col gap-2 rounded-lg border p-4">
            <span
              aria-hidden="true"
              className="flex size-8 items-center justify-center rounded-full bg-primary font-bold text-primary-foreground"
            >
              {index + 1}
            </span>
            <h3 className="font-semibold">{step.title}</h3>
            <p className="text-sm text-muted-foreground">{step.text}</p>
          </li>
        ))}
      </ol>
    </section>
  )
}
