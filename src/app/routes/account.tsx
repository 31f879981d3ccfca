/**
 * `/dashboard/account` (PRODUCT "Everyone's account"): name, email change, password change, two-factor sign-in
 * with a scannable QR code, and signing out other devices. Any signed-in user, in their own dashboard's layout.
 */
import type { ReactNode } from 'react'
import { useSession } from '@/lib/session'
import { RequireUser } from '@/app/layouts/require-user'
import { DashboardShell } from '@/app/layouts/dashboard-shell'
import { PageHeader } from '@/components/page-header'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { ProfileNameForm } from '@/features/account/components/profile-name-form'
import { EmailChangeForm } from '@/features/account/components/email-change-form'
import { PasswordChangeForm } from '@/features/account/components/password-change-form'
import { MfaSettings } from '@/features/account/components/mfa-settings'
import { OtherSessions } from '@/features/account/components/other-sessions'

function Section({
  id,
  title,
  description,
  children,
}: {
  id: string
  title: string
  description?: string
  children: ReactNode
}) {
  return (
    <section aria-labelledby={id}>
      <Card>
        <CardHeader>
          <CardTitle id={id}>{title}</CardTitle>
          {description ? <CardDescription>{description}</CardDescription> : null}
        </CardHeader>
        <CardContent>{children}</CardContent>
      </Card>
    </section>
  )
}

function Account() {
  const { user, userType } = useSession()
  if (!user) return null
  const meta = user.user_metadata ?? {}
  const text = (value: unknown) => (typeof value === 'string' ? value : '')
  return (
    <DashboardShell area={userType}>
      <PageHeader title="Account" description="Your name, sign-in details and security." />
      <div className="flex max-w-3xl flex-col gap-6">
        <Section id="account-name" title="Name">
          <ProfileNameForm userId={user.id} firstName={text(meta.first_name)} lastName={text(meta.last_name)} />
        </Section>
        <Section id="account-email" title="Email address">
          <EmailChangeForm currentEmail={user.email ?? ''} />
        </Section>
        <Section id="account-password" title="Password">
          <PasswordChangeForm />
        </Section>
        <Section
          id="account-mfa"
          title="Two-factor sign-in"
          description="A code from an authenticator app on top of your password."
        >
          <MfaSettings />
        </Section>
        <Section id="account-sessions" title="Devices">
          <OtherSessions />
        </Section>
      </div>
    </DashboardShell>
  )
}

export default function AccountPage() {
  return (
    <RequireUser>
      <Account />
    </RequireUser>
  )
}
