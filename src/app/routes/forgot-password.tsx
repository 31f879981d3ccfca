// TODO(lead): page not built yet — must be replaced before landing.
export default function ForgotPasswordPage() {
  return <h1>ForgotPassword</h1>
}
