// TODO(lead): page not built yet — must be replaced before landing.
export default function GdprPage() {
  return <h1>Gdpr</h1>
}
