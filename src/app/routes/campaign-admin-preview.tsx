// TODO(lead): page not built yet — must be replaced before landing.
export default function CampaignAdminPreviewPage() {
  return <h1>CampaignAdminPreview</h1>
}
