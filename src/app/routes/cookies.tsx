/** /cookies: what is stored in the browser and why. */
import { brand } from '@/config/brand'
import { ContentPage, ContentSection } from '@/features/content/components/content-page'

const entries = [
  {
    name: 'Sign-in session',
    purpose: 'Keeps you logged in and refreshes your session before it expires.',
    duration: 'Until you log out',
  },
  {
    name: 'Referral attribution',
    purpose: 'Remembers which magic link brought you, so the right influencer is credited.',
    duration: 'Until you subscribe or clear it',
  },
  {
    name: 'Subscribed newsletters',
    purpose: 'Remembers what this browser already subscribed to, so we do not ask twice.',
    duration: 'Until you clear it',
  },
  {
    name: 'Registration details',
    purpose: 'Your chosen account type and name between sign-up and first log-in.',
    duration: 'Until your first log-in',
  },
]

export default function CookiesPage() {
  return (
    <ContentPage
      title="Cookie Policy"
      updated="1 November 2026"
      intro={`${brand.name} uses no advertising or tracking cookies. What we store in your browser is needed for the service to work.`}
    >
      <ContentSection title="What we store">
        <div className="overflow-x-auto">
          <table className="w-full text-left text-sm">
            <thead>
              <tr className="border-b">
                <th scope="col" className="py-2 pr-4">
                  What
                </th>
                <th scope="col" className="py-2 pr-4">
                  Why
                </th>
                <th scope="col" className="py-2">
                  How long
                </th>
              </tr>
            </thead>
            <tbody>
              {entries.map((entry) => (
                <tr key={entry.name} className="border-b align-top">
                  <td className="py-2 pr-4 font-medium">{entry.name}</td>
                  <td className="py-2 pr-4">{entry.purpose}</td>
                  <td className="py-2">{entry.duration}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </ContentSection>
      <ContentSection title="Local storage, not cookies">
        <p>
          These values live in your browser’s local storage and are never sent to third parties. Clearing your browser
          data removes them; you will be logged out and a referral will no longer be attributed.
        </p>
      </ContentSection>
      <ContentSection title="Payments">
        <p>
          When you add credits, our payment provider’s checkout page may set its own cookies to process the payment
          securely.
        </p>
      </ContentSection>
    </ContentPage>
  )
}
