/** A newsletter as the public pages show it: an active campaign with its advertiser's name. */
export const CAMPAIGN_CARD_COLUMNS =
  'id, name, description, image_url, category, website_url, status, created_at, advertiser:profiles!campaigns_advertiser_id_fkey(full_name)'

export type CampaignCard = {
  id: string
  name: string
  description: string | null
  image_url: string | null
  category: string | null
  website_url: string | null
  status: string
  created_at: string
  advertiser: { full_name: string | null } | null
}

export const isUuid = (value: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value)
