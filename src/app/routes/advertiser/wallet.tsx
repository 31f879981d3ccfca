// TODO(lead): page not built yet — must be replaced before landing.
export default function WalletPage() {
  return <h1>Wallet</h1>
}
