// TODO(lead): page not built yet — must be replaced before landing.
export default function NewslettersPage() {
  return <h1>Newsletters</h1>
}
