/** GET /health and GET /settings: what GoTrue reports about itself and its enabled providers. */
import { json } from '../errors'
import type { Route } from '../env'

export const health: Route = async () =>
  json({
    version: 'growletter-local',
    name: 'GoTrue',
    description: 'GoTrue-compatible auth of the embedded Growletter backend',
  })

export const settingsRoute: Route = async (env) => {
  const s = env.settings
  const email = s.emailSignupEnabled
  return json({
    external: {
      anonymous_users: false,
      email,
      phone: false,
      apple: false,
      azure: false,
      bitbucket: false,
      discord: false,
      facebook: false,
      figma: false,
      github: false,
      gitlab: false,
      google: false,
      keycloak: false,
      kakao: false,
      linkedin_oidc: false,
      notion: false,
      spotify: false,
      slack_oidc: false,
      workos: false,
      twitch: false,
      twitter: false,
      zoom: false,
    },
    disable_signup: !s.signupEnabled,
    mailer_autoconfirm: !s.confirmEmail,
    phone_autoconfirm: false,
    sms_provider: '',
    saml_enabled: false,
  })
}
