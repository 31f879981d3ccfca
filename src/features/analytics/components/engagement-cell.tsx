/**
 * A source's engagement in the advertisers' email tools, as esp_engagement_figures computed it: the rate, and how
 * many of the read-back subscribers opened or clicked. "Not read yet" before the first read-back; a dash when none
 * of the source's subscribers went to a connected email tool.
 */
import type { SourceEngagement } from '../api/esp-engagement-query'

// Not "Engaged": that word's rate (metrics.sourceEngagedRate) counts only a person's opens or clicks once the window
// has closed, from 20 readers; this is every open or click the tool reported in the first week.
export const ENGAGEMENT_HEADER = 'Opened or clicked, first week'

export function EngagementCell({ engagement }: { engagement: SourceEngagement | null }) {
  if (!engagement)
    return (
      <span
        className="text-muted-foreground"
        title="No subscriber of this source is in an email tool that reports opens"
      >
        —
      </span>
    )
  if (engagement.rate === null)
    return (
      <span className="text-muted-foreground" data-testid="engagement">
        Not read yet
      </span>
    )
  return (
    <span data-testid="engagement">
      {engagement.rate.toFixed(0)}%
      <span className="block text-xs text-muted-foreground">
        {engagement.engaged.toLocaleString('en-US')} of {engagement.checked.toLocaleString('en-US')} opened or clicked
      </span>
    </span>
  )
}

/** For sorting: the rate, with sources nobody read back last. */
export const engagementSortValue = (engagement: SourceEngagement | null) => engagement?.rate ?? -1
