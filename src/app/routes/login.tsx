// TODO(lead): page not built yet — must be replaced before landing.
export default function LoginPage() {
  return <h1>Login</h1>
}
