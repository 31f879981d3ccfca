// TODO(lead): page not built yet — must be replaced before landing.
export default function EarnPage() {
  return <h1>Earn</h1>
}
