// TODO(lead): page not built yet — must be replaced before landing.
export default function PublisherAreaPage() {
  return <h1>PublisherArea</h1>
}
