// TODO(lead): page not built yet — must be replaced before landing.
export default function NewsletterPage() {
  return <h1>Newsletter</h1>
}
