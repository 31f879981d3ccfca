/**
 * On the publisher's overview: a source whose link brought readers to a newsletter it may not promote (blocked, or
 * not approved for a newsletter by approval) is named, with how many readers of the last 30 days were not paid and
 * the way to apply. Counts come from `publisher_partnerships`; nothing shows while every link is paid.
 */
import { Link } from 'react-router-dom'
import { paths } from '@/config/paths'
import { formatCount } from '@/lib/format'
import { reasonLabel } from '@/lib/vocabulary'
import { useUnpaidPartnerLinksQuery } from '../api/publisher-partnerships-query'

export function PartnerNotice({ userId }: { userId: string }) {
  const links = useUnpaidPartnerLinksQuery(userId)
  if (!links.data?.length) return null
  return (
    <section
      className="rounded-lg border border-yellow-300 bg-yellow-50 p-4 text-sm text-yellow-950"
      aria-labelledby="partner-notice-heading"
      data-testid="partner-notice"
    >
      <h2 id="partner-notice-heading" className="font-semibold">
        Some of your links are not paid: “{reasonLabel('not_a_partner')}”
      </h2>
      <ul className="mt-2 list-disc space-y-1 pl-5">
        {links.data.map((link) => (
          <li key={`${link.campaignId}:${link.sourceId}`}>
            {link.sourceName} → {link.campaignName}: {formatCount(link.unpaidReaders)}{' '}
            {link.unpaidReaders === 1 ? 'reader' : 'readers'} in the last 30 days{' '}
            {link.status === 'blocked'
              ? '(the advertiser blocked this source)'
              : '(the newsletter pays approved partners only)'}
          </li>
        ))}
      </ul>
      <p className="mt-2">
        <Link className="font-medium underline" to={paths.publisher.offers}>
          See your offers
        </Link>{' '}
        to apply, or promote a newsletter that pays your source.
      </p>
    </section>
  )
}
