/** The notification templates by name, as public.notification_queue.template names them. */
import { accountSuspended } from './account-suspended.ts'
import { campaignReviewed } from './campaign-reviewed.ts'
import { depositReceipt } from './deposit-receipt.ts'
import { disputeDecided } from './dispute-decided.ts'
import { disputeOpened } from './dispute-opened.ts'
import { lowBalance } from './low-balance.ts'
import type { NotificationData, Recipient, Rendered } from './notification-email.ts'
import { partnerApplied } from './partner-applied.ts'
import { partnerDecided } from './partner-decided.ts'
import { payoutFailed } from './payout-failed.ts'
import { payoutPaid } from './payout-paid.ts'
import { payoutReversed } from './payout-reversed.ts'
import { revisionDecided } from './revision-decided.ts'
import { sourceReviewed } from './source-reviewed.ts'

const templates: Record<string, (to: Recipient, data: NotificationData, siteUrl: string) => Rendered> = {
  source_reviewed: sourceReviewed,
  campaign_reviewed: campaignReviewed,
  low_balance: lowBalance,
  payout_paid: payoutPaid,
  payout_failed: payoutFailed,
  payout_reversed: payoutReversed,
  dispute_decided: disputeDecided,
  deposit_receipt: depositReceipt,
  revision_decided: revisionDecided,
  dispute_opened: disputeOpened,
  account_suspended: accountSuspended,
  partner_applied: partnerApplied,
  partner_decided: partnerDecided,
}

export function renderNotification(template: string, to: Recipient, data: NotificationData, siteUrl: string): Rendered {
  const render = templates[template]
  if (!render) throw new Error(`Unknown notification template ${template}`)
  return render(to, data, siteUrl)
}
