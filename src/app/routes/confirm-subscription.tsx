// TODO(lead): page not built yet — must be replaced before landing.
export default function ConfirmSubscriptionPage() {
  return <h1>ConfirmSubscription</h1>
}
