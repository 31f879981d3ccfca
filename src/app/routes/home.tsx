// TODO(lead): page not built yet — must be replaced before landing.
export default function HomePage() {
  return <h1>Home</h1>
}
