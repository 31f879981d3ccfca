// TODO(lead): page not built yet — must be replaced before landing.
export default function PrivacyPage() {
  return <h1>Privacy</h1>
}
