/**
 * `dist/earn.html` is this script, inlined as its first element, and a spinner (scripts/prerender-plugin.ts):
 * the click goes out as soon as the page arrives and the page leaves with `location.replace` for the
 * destination's prerendered document, where src/main.tsx finishes the click (toast, fingerprint). Everything it
 * imports is bundled into it; it must stay small (see ./lib/earn-click.ts). With a broken environment it sends
 * nothing and loads the app instead, which says what is wrong.
 */
import { quickEnv } from '@/config/env-check'
import { earnCodeOf, recordEarnClick } from './lib/earn-click'

/** The app's entry script and stylesheets, written in by the plugin that builds the page. */
declare const __EARN_APP_ASSETS__: { scripts: string[]; styles: string[] }

function startApp() {
  for (const href of __EARN_APP_ASSETS__.styles) {
    const link = document.createElement('link')
    link.rel = 'stylesheet'
    link.href = href
    document.head.append(link)
  }
  for (const src of __EARN_APP_ASSETS__.scripts) {
    const script = document.createElement('script')
    script.type = 'module'
    script.crossOrigin = ''
    script.src = src
    document.head.append(script)
  }
}

const code = earnCodeOf(window.location.pathname)
if (code !== null && quickEnv(import.meta.env)) window.__growletterEarnClick = recordEarnClick(code)
else startApp()
