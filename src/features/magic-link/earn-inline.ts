/**
 * Inlined into `dist/earn.html` as a classic script at the top of the page (scripts/prerender-plugin.ts): the
 * click goes out as soon as the page arrives, before its stylesheet is parsed and while the app's modules
 * download, and waits in `window.__growletterEarnClick` for src/app/earn-entry.ts. Everything it imports is
 * bundled into it; it must stay small (see ./lib/earn-click.ts). With a broken environment it does nothing
 * and the app, starting next, says what is wrong.
 */
import { quickEnv } from '@/config/env-check'
import { earnCodeOf, recordEarnClick } from './lib/earn-click'

const code = earnCodeOf(window.location.pathname)
if (code !== null && quickEnv(import.meta.env)) window.__growletterEarnClick = recordEarnClick(code)
