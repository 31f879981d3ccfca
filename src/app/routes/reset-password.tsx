// TODO(lead): page not built yet — must be replaced before landing.
export default function ResetPasswordPage() {
  return <h1>ResetPassword</h1>
}
