// TODO(lead): page not built yet — must be replaced before landing.
export default function NotFoundPage() {
  return <h1>NotFound</h1>
}
