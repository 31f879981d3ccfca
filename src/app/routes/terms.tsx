// TODO(lead): page not built yet — must be replaced before landing.
export default function TermsPage() {
  return <h1>Terms</h1>
}
