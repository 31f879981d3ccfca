// TODO(lead): page not built yet — must be replaced before landing.
export default function RegisterPage() {
  return <h1>Register</h1>
}
