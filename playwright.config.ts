/**
 * End-to-end tests: the built SPA (vite preview) against the embedded backend with a fresh seeded
 * database, in Debian's Chromium. Playwright never downloads a browser here.
 */
import { existsSync } from 'node:fs'
import { defineConfig, devices } from '@playwright/test'
import { E2E } from './e2e/ports'

// Debian's old headless shell (package chromium-headless-shell, which .ci/run installs) when it is there: the same
// Blink as /usr/bin/chromium without the full browser around it, ≈ 12% less CPU for the browser measured on two specs
// (the browser is the suite's largest consumer of CPU). Otherwise the full Chromium in its headless mode.
const HEADLESS_SHELL = '/usr/lib/chromium/chromium-headless-shell'
const chromium = process.env.CHROME_PATH ?? (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : '/usr/bin/chromium')

export default defineConfig({
  testDir: './e2e',
  testMatch: '**/*.spec.ts',
  // Spec files run on two workers, each file's tests in order, against one shared stack: every spec works
  // with accounts, sources and visitors of its own, so no spec depends on another having run first. Most of a
  // spec's time is spent waiting on the browser, the server and the scheduler, so two workers roughly halve
  // the stage on two cores, even with another process keeping one of them busy.
  fullyParallel: false,
  workers: 2,
  retries: 0,
  // Limits that only stop a hung test: every step waits for a condition (a URL, a text, an email), and on a
  // busy two-core machine a step can take seconds. No test passes or fails on how fast it got there.
  timeout: 120_000,
  expect: { timeout: 20_000 },
  reporter: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ? [['list'], ['json']] : [['list']],
  use: {
    baseURL: E2E.appUrl,
    // A trace records a screencast and a DOM snapshot of every step of every test, kept or not: it doubled the
    // browser's CPU (measured on layout + shell: 121 CPU-seconds with it, 77 without), a third of the suite's
    // cost on a busy two-core machine. A failure still leaves the page's ARIA snapshot
    // (test-results/*/error-context.md); `E2E_TRACE=1 npm run test:e2e` records traces to step through.
    trace: process.env.E2E_TRACE ? 'retain-on-failure' : 'off',
    // Screenshots only with E2E_TRACE as well: for 'only-on-failure' Playwright photographs every page of every context
    // as it closes, passing or not (it cannot know yet), and throws the pictures away after a pass: 101 screenshots a
    // run at 0.03–0.05 CPU-seconds each (browser and GPU processes, the worker writing the PNGs), for the one failure
    // that might need them. A failure's error-context.md is written either way (checked with a failing spec).
    screenshot: process.env.E2E_TRACE ? 'only-on-failure' : 'off',
    // The browser asks for reduced motion, as a person may (src/index.css, MotionConfig in the mobile menu): no test
    // waits on an animation, and a page without transitions and pulsing skeletons renders far fewer frames.
    // e2e/shell.spec.ts opens the phone menu with motion too.
    reducedMotion: 'reduce',
    launchOptions: {
      executablePath: chromium,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--disable-dev-shm-usage',
        // V8 stops at Sparkplug, its baseline compiler: a test's page lives seconds, too short for what Maglev and
        // TurboFan compile to pay back; GC stays on the page's thread, without helper threads to wake. Renderer
        // CPU-seconds of the whole suite, alternating runs on a loaded machine (load 13-15): 134, 155, 147 with it
        // against 142, 156, 157 without (-4%; short pages cheaper, the long axe walks a little dearer); quiet, the
        // lead measured 88 against 97-101 with --max-opt=1 alone, and 94 with --max-opt=0. The same 76 tests pass.
        '--js-flags=--max-opt=1 --single-threaded-gc',
      ],
    },
  },
  projects: [{ name: 'desktop', use: { ...devices['Desktop Chrome'], channel: undefined } }],
  webServer: {
    // node itself, not npx and tsx's wrappers: Playwright waits for this process before killing the group, so the
    // stop below runs to its end.
    command: 'node --import tsx e2e/serve.ts',
    url: `${E2E.appUrl}/`,
    timeout: 180_000,
    reuseExistingServer: false,
    // e2e/serve.ts stops its PostgreSQL cluster and removes its folder on SIGTERM (a SIGKILL, the default, would
    // leave both behind).
    gracefulShutdown: { signal: 'SIGTERM', timeout: 15_000 },
    stdout: 'pipe',
    stderr: 'pipe',
  },
})
