// TODO(lead): page not built yet — must be replaced before landing.
export default function CookiesPage() {
  return <h1>Cookies</h1>
}
