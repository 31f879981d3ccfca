/** A newsletter as the public pages show it: an active campaign with its advertiser's name. */
export const CAMPAIGN_CARD_COLUMNS =
  'id, name, description, image_url, category, website_url, sample_issue_url, frequency, audience_size, audience_line, status, created_at, advertiser:profiles!campaigns_advertiser_id_fkey(full_name)'

export type CampaignCard = {
  id: string
  name: string
  description: string | null
  image_url: string | null
  category: string | null
  website_url: string | null
  /** What the landing page tells about it (all optional; stated by the advertiser, approved by an admin). */
  sample_issue_url?: string | null
  frequency?: string | null
  audience_size?: number | null
  audience_line?: string | null
  status: string
  created_at: string
  advertiser: { full_name: string | null } | null
}

export const isUuid = (value: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value)
