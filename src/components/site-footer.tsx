/** The footer for signed-out visitors (SPEC §2): three groups of links, Product Hunt, tagline, © year. */
import { Link } from 'react-router-dom'
import { brand } from '@/config/brand'
import { paths } from '@/config/paths'
import { BrandLogo } from './brand-logo'

const groups = [
  {
    title: 'Company',
    links: [
      { label: 'About Us', to: paths.about },
      { label: 'Contact Us', to: paths.contact },
      { label: 'Help Center', to: paths.help },
    ],
  },
  {
    title: 'Services',
    links: [
      { label: 'For Advertisers', to: `${paths.register}?role=advertiser` },
      { label: 'For Influencers', to: `${paths.register}?role=publisher` },
      { label: 'Browse Newsletters', to: paths.campaigns },
    ],
  },
  {
    title: 'Legal',
    links: [
      { label: 'Terms of Service', to: paths.terms },
      { label: 'Privacy Policy', to: paths.privacy },
      { label: 'Cookie Policy', to: paths.cookies },
      { label: 'GDPR Compliance', to: paths.gdpr },
    ],
  },
] as const

export function SiteFooter({ year = new Date().getFullYear() }: { year?: number }) {
  return (
    <footer className="border-t bg-muted/40">
      <div className="mx-auto grid max-w-6xl gap-8 px-4 py-10 sm:px-6 md:grid-cols-[2fr_1fr_1fr_1fr]">
        <div className="flex flex-col gap-3">
          <BrandLogo />
          <p className="max-w-xs text-sm text-muted-foreground">{brand.tagline}</p>
          <a
            href={brand.productHuntUrl}
            target="_blank"
            rel="noopener noreferrer"
            className="inline-flex w-fit items-center gap-2 rounded-md border bg-background px-3 py-1.5 text-sm font-medium hover:bg-accent focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
          >
            <span
              aria-hidden="true"
              className="flex size-5 items-center justify-center rounded-full bg-[#b23a0e] text-xs font-bold text-white"
            >
              P
            </span>
            Featured on Product Hunt
          </a>
        </div>
        {groups.map((group) => (
          <nav key={group.title} aria-label={group.title}>
            <h2 className="mb-3 text-sm font-semibold">{group.title}</h2>
            <ul className="flex flex-col gap-2">
              {group.links.map((link) => (
                <li key={link.label}>
                  <Link to={link.to} className="text-sm text-muted-foreground hover:text-foreground hover:underline">
                    {link.label}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
        ))}
      </div>
      <p className="border-t px-4 py-4 text-center text-sm text-muted-foreground">
        © {year} {brand.name}. All rights reserved.
      </p>
    </footer>
  )
}
