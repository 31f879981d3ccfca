// TODO(lead): page not built yet — must be replaced before landing.
export default function SubmitNewsletterPage() {
  return <h1>SubmitNewsletter</h1>
}
