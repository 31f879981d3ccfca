// TODO(lead): page not built yet — must be replaced before landing.
export default function AdminAreaPage() {
  return <h1>AdminArea</h1>
}
