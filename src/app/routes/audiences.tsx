// TODO(lead): page not built yet — must be replaced before landing.
export default function AudiencesPage() {
  return <h1>Audiences</h1>
}
