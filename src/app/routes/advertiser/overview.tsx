// TODO(lead): page not built yet — must be replaced before landing.
export default function OverviewPage() {
  return <h1>Overview</h1>
}
