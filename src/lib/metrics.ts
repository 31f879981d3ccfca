/**
 * The catalogue of figures (PRODUCT "Wave 3 decisions — one word, one definition, everywhere"): each figure a
 * screen shows under a label, the one label it has, what it means, and the one database function (and column)
 * it comes from. Screens take their labels from here, so one word cannot mean two numbers; the test
 * `src/lib/metrics.test.ts` renders each screen against those functions and checks each label shows that
 * function's value, and that no screen spells a catalogued label itself.
 */

import { publicMetrics } from './public-metrics'

export type MetricDefinition = {
  /** What the screen writes beside the figure. */
  label: string
  /** What the figure means, in the words of PRODUCT. */
  definition: string
  /** The database function the figure comes from, and its column: `function.column`. */
  source: string
  /** The screens that show it. */
  screens: readonly string[]
}

/** The one definition of "Confirmed subscribers", on every screen that shows the label (and in the help page). */
export const CONFIRMED =
  'Readers who confirmed by email and were not refunded, paid for or free (unsubscribing later does not undo a confirmation); refunded readers are shown separately.'

const define = <const T extends Record<string, MetricDefinition>>(catalogue: T) => catalogue

export const metrics = define({
  // --- The advertiser's money: available + reserved + on hold = balance -----------------------------------
  available: {
    label: 'Available',
    definition: 'Credits free to pay new subscribers: the balance minus what is reserved and on hold.',
    source: 'advertiser_balance.available',
    screens: ['advertiser overview', 'wallet', 'admin user page'],
  },
  reserved: {
    label: 'Reserved',
    definition: 'The locked price of subscribers who have not confirmed yet (released if they never do).',
    source: 'advertiser_balance.reserved',
    screens: ['advertiser overview', 'wallet', 'admin user page'],
  },
  onHold: {
    label: 'On hold',
    definition: 'Charges for confirmed subscribers still in the 7-day screening period (refundable).',
    source: 'advertiser_balance.on_hold',
    screens: ['advertiser overview', 'wallet', 'admin user page'],
  },
  balance: {
    label: 'Balance',
    definition: 'Every completed movement of the wallet: deposits and bonuses less what was charged.',
    source: 'advertiser_balance.balance',
    screens: ['advertiser overview', 'wallet', 'admin user page'],
  },
  // --- Subscribers and clicks --------------------------------------------------------------------------
  // "Confirmed subscribers" has one definition everywhere (PRODUCT "Words and numbers, second pass"): readers who
  // confirmed by email and were not refunded, paid for or free; unsubscribing later does not undo a confirmation.
  // Refunded readers are counted beside it (refundedReaders), never inside it.
  confirmedSubscribers: {
    label: 'Confirmed subscribers',
    definition: CONFIRMED,
    source: 'campaign_subscriber_totals.confirmed',
    screens: ['advertiser subscribers'],
  },
  refundedReaders: {
    label: 'Refunded',
    definition: 'Readers who confirmed but whose charge was given back during screening (fraud or a dispute).',
    source: 'campaign_subscriber_totals.refunded',
    screens: ['advertiser subscribers'],
  },
  weekConfirmedSubscribers: {
    label: 'Confirmed subscribers (7 days)',
    definition: `${CONFIRMED} Those who confirmed in the last 7 days.`,
    source: 'campaign_week_figures.confirmed_subscribers',
    screens: ['advertiser overview'],
  },
  weekPaidSubscribers: {
    label: 'Paid subscribers (7 days)',
    definition: 'Confirmed subscribers of the last 7 days who were charged (attributed to a source and counted).',
    source: 'campaign_week_figures.paid_subscribers',
    screens: ['advertiser overview'],
  },
  paidSubscribers: {
    label: 'Paid subscribers',
    definition: 'Confirmed subscribers who were charged: counted, attributed to a source, not refunded.',
    source: 'figure_totals.conversions',
    screens: ['advertiser analytics', 'admin analytics'],
  },
  views: {
    label: 'Views',
    definition:
      "Opens of the newsletter's own page by visitors who came through a counted click. A visitor who subscribes from the list of newsletters opens no page, so views can be 0 while clicks and subscribers are not.",
    source: 'figure_totals.views',
    screens: ['advertiser analytics', 'admin analytics'],
  },
  countedClicks: {
    label: 'Counted clicks',
    definition:
      "Counted visits through a magic link. For a newsletter: those whose visitor opened or subscribed to it (once per pair). For a source alone: the source's distinct counted clicks, never a sum over newsletters.",
    source: 'figure_totals.clicks',
    screens: ['advertiser analytics', 'admin analytics'],
  },
  conversionRate: {
    label: 'Conversion rate',
    definition: 'Paid subscribers per 100 counted clicks.',
    source: 'figure_totals.ctr',
    screens: ['advertiser analytics', 'admin analytics'],
  },
  spend: {
    label: 'Spend',
    definition: 'Credits charged for paid subscribers (on hold or settled).',
    source: 'figure_totals.spend',
    screens: ['advertiser analytics', 'admin analytics'],
  },
  // --- The publisher's side ----------------------------------------------------------------------------
  sourceCountedClicks: {
    label: 'Counted clicks',
    definition: "A source's counted clicks, whichever newsletters its visitors opened: never a sum over campaigns.",
    source: 'source_totals.counted_clicks',
    screens: ['publisher overview'],
  },
  eachSourceCountedClicks: {
    label: 'Counted clicks',
    definition: "One source's counted clicks (the same count as source_totals sums over the publisher's sources).",
    source: 'source_figures.counted_clicks',
    screens: ['publisher sources'],
  },
  sourceConfirmedSubscribers: {
    label: 'Confirmed subscribers',
    definition: `${CONFIRMED} Those who came through the publisher's sources.`,
    source: 'source_totals.confirmations',
    screens: ['publisher overview'],
  },
  sourcePaidSubscribers: {
    label: 'Paid subscribers',
    definition: 'Confirmed subscribers of the source that earned the publisher money (counted, not refunded).',
    source: 'source_totals.conversions',
    screens: ['publisher overview'],
  },
  statsCountedClicks: {
    label: 'Counted clicks',
    definition: "Per source: the source's counted clicks. Per newsletter: counted clicks that opened it.",
    source: 'publisher_figures.clicks',
    screens: ['publisher stats'],
  },
  statsPaidSubscribers: {
    label: 'Paid subscribers',
    definition: 'Confirmed subscribers who earned the publisher money.',
    source: 'publisher_figures.conversions',
    screens: ['publisher stats'],
  },
  dailyPaidSubscribers: {
    label: 'Paid subscribers per day',
    definition:
      "Per day of the chosen range: confirmed subscribers through the publisher's links who earned them money.",
    source: 'daily_figures.conversions',
    screens: ['publisher stats'],
  },
  embedLoads: {
    label: 'Loads',
    definition: "How many times the source's embed was shown on a site (not to bots, nor the publisher's own preview).",
    source: 'publisher_embed_figures.loads',
    screens: ['publisher embed'],
  },
  embedConfirmedSubscribers: {
    label: 'Confirmed subscribers',
    definition: "Everyone who confirmed a subscription started in the source's embed, paid for or not.",
    source: 'publisher_embed_figures.subscribers',
    screens: ['publisher embed'],
  },
  embedPaidSubscribers: {
    label: 'Paid subscribers',
    definition: "Confirmed subscribers from the source's embed that earned the publisher money.",
    source: 'publisher_embed_figures.paid_subscribers',
    screens: ['publisher embed'],
  },
  tokenPaidSubscribers: {
    label: 'Paid through a click token',
    definition:
      'Paid subscribers of the source (any channel) who subscribed in another browser or network than the one that clicked, counted through the signed click token of the link.',
    source: 'publisher_embed_figures.token_subscribers',
    screens: ['publisher embed'],
  },
  // --- Partner programs: a source's quality, as the advertiser weighs an application -----------------------
  partnerCountedClicks: {
    label: 'Counted clicks (30 days)',
    definition:
      "A source's counted clicks over the last 30 days, whichever newsletters its visitors opened (the directory's quality figure).",
    source: 'campaign_partner_sources.counted_clicks',
    screens: ['advertiser partners'],
  },
  partnerConfirmationRate: {
    label: 'Confirmation rate (30 days)',
    definition:
      "Of the subscriptions started through the source in the last 30 days whose click counted, the % confirmed (the directory's quality figure).",
    source: 'campaign_partner_sources.confirmation_rate',
    screens: ['advertiser partners'],
  },
  partnerEngagedRate: {
    label: 'Engaged rate',
    definition:
      "Of the source's readers (any newsletter) whose engagement window has closed and whose email tool answered, the % with a counted open or click, as Offers and the analytics show it; shown from 20 readers.",
    source: 'campaign_partner_sources.engaged_rate',
    screens: ['advertiser partners'],
  },
  // --- Engagement-verified pay: how a source's (or a newsletter's) readers read ------------------------------
  sourceEngagedRate: {
    label: 'Engaged rate',
    definition:
      "Of the source's readers (any newsletter) whose engagement window has closed and whose email tool answered, the % with a counted open or click (a person's, where the tool tells machines apart; else a click); shown from 20 readers.",
    source: 'engaged_rates.engaged_rate',
    screens: ['publisher offers', 'advertiser analytics'],
  },
  // The directory card's figure: ./public-metrics.ts (the card does not load this catalogue).
  ...publicMetrics,
  partnerPaidSubscribers: {
    label: 'Paid subscribers',
    definition: 'Confirmed subscribers the source brought this newsletter who were charged (counted, not refunded).',
    source: 'campaign_partner_sources.paid_subscribers',
    screens: ['advertiser partners'],
  },
  // --- Disputes, each side in its own money ---------------------------------------------------------------
  disputeRefunded: {
    label: 'Refunded',
    definition: "The advertiser's side of an upheld dispute: the charges given back.",
    source: 'disputes.refunded',
    screens: ['advertiser disputes', 'admin disputes'],
  },
  disputeEarningsCancelled: {
    label: 'Earnings cancelled',
    definition: "The publisher's side of an upheld dispute: their share (price − 20%) of the refunded charges.",
    source: 'publisher_disputes.earnings_cancelled',
    screens: ['publisher disputes'],
  },
  disputeEarningsAtStake: {
    label: 'Earnings at stake',
    definition:
      "The publisher's side of an open dispute: their pending earnings from its readers, held until an admin decides.",
    source: 'publisher_disputes.earnings_at_stake',
    screens: ['publisher disputes'],
  },
  disputeChargesAtStake: {
    label: 'Charges on hold',
    definition: "The advertiser's side of an open dispute: the charges for its readers, held until an admin decides.",
    source: 'dispute_at_stake.charged',
    screens: ['admin disputes', 'advertiser disputes'],
  },
})

export type MetricKey = keyof typeof metrics

/** The labels of the catalogue, for the test that no screen writes one itself. */
export const metricLabels = [...new Set(Object.values(metrics).map((m) => m.label))]
