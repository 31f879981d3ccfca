// TODO(lead): page not built yet — must be replaced before landing.
import { Outlet } from 'react-router-dom'
export default function AdvertiserLayoutPage() {
  return <Outlet />
}
