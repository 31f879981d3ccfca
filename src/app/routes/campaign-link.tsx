// TODO(lead): page not built yet — must be replaced before landing.
export default function CampaignLinkPage() {
  return <h1>CampaignLink</h1>
}
