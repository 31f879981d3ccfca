// TODO(lead): page not built yet — must be replaced before landing.
export default function AboutPage() {
  return <h1>About</h1>
}
