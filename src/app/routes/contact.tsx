// TODO(lead): page not built yet — must be replaced before landing.
export default function ContactPage() {
  return <h1>Contact</h1>
}
