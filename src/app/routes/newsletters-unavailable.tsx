// TODO(lead): page not built yet — must be replaced before landing.
export default function NewslettersUnavailablePage() {
  return <h1>NewslettersUnavailable</h1>
}
