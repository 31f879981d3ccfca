// TODO(lead): page not built yet — must be replaced before landing.
export default function AnalyticsPage() {
  return <h1>Analytics</h1>
}
