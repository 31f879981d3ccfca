// TODO(lead): page not built yet — must be replaced before landing.
export default function HelpPage() {
  return <h1>Help</h1>
}
