// TODO(lead): page not built yet — must be replaced before landing.
export default function UpdatePasswordPage() {
  return <h1>UpdatePassword</h1>
}
