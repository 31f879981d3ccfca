// TODO(lead): page not built yet — must be replaced before landing.
export default function DashboardRedirectPage() {
  return <h1>DashboardRedirect</h1>
}
