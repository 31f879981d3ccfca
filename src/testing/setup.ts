/**
 * Runs before every SPA test file. The unit project shares one module registry per worker (`isolate: false` in
 * vitest.config.ts): happy-dom, React, Radix and the other packages load once per worker instead of once per file,
 * which is most of the suite's CPU time. Our own modules keep state (the lazily loaded auth client, the toast
 * facade, the MSW server), so each file starts by dropping the registry of everything Vitest evaluates (our own
 * modules and the packages listed in `server.deps.inline`): every file then evaluates them afresh, as if it ran
 * alone. That is why the MSW server is imported after the reset: the test file gets the very instance this file
 * starts. A file also ends only when the modules it began loading (a lazily loaded page) have finished, so none
 * of its late work lands in the next file's registry.
 */
import '@testing-library/jest-dom/vitest'
import { afterAll, afterEach, beforeAll, vi } from 'vitest'
import { cleanup, configure, getConfig } from '@testing-library/react'

if (typeof document === 'undefined')
  throw new Error(
    'Unit test files run in happy-dom: a file in another environment makes Vitest replace a worker (vitest.config.ts)',
  )

// The DOM's window is the worker's too: every file starts with an empty document at the same address, as a fresh
// page would. What a file's modules put in <head> stays there otherwise: sonner adds its 15 KB style sheet each time
// it is evaluated (once per file, see above), and happy-dom parses every sheet in the document for each
// getComputedStyle, which every getByRole calls per element; by a worker's fiftieth file that was a fifth of its CPU.
document.head.replaceChildren()
document.body.replaceChildren()
for (const { name } of [...document.documentElement.attributes]) document.documentElement.removeAttribute(name)
window.history.replaceState(null, '', '/')
vi.resetModules()
const { server } = await import('./msw-server')

// A test waits for a screen by its condition, never for a speed: on a busy two-core machine (the browser suite
// runs beside this one, CI may keep a core busy) the first render of a lazily loaded page can take seconds.
// The limit only stops a test that would otherwise hang; what a test asserts is unchanged. It sits just under the
// unit project's 60 s test timeout, so a hang still fails with the screen's DOM printed: at 15 s, the publisher's
// Stats page (its first render loads the charts) took 4.5–9.6 s in green CI runs and passed 15 s once, at load 11.
configure({ asyncUtilTimeout: 50_000 })

// A query that finds nothing prints the page into its error. While a `findBy*`/`waitFor` is still waiting, each
// attempt (every 50 ms and after every DOM change) fails that way and its error is thrown away, so printing the page
// there was a twentieth of the project's CPU. Those attempts get the message alone; the error a test finally sees
// (a `getBy*` outside waitFor, or a waitFor that timed out, which asks again outside its attempts) still carries
// the page as it was at that moment.
type ElementError = (message: string | null, container: Element) => Error
// This file runs once per test file in a worker that keeps @testing-library/dom loaded, so the printing original is
// kept on the replacement rather than wrapped again each time.
const printing = Symbol.for('growletter.printingElementError')
const configured = getConfig().getElementError as ElementError & { [printing]?: ElementError }
const printingElementError = configured[printing] ?? configured
const elementError: ElementError & { [printing]?: ElementError } = (message, container) => {
  // Set by @testing-library/dom's waitFor around each attempt (runWithExpensiveErrorDiagnosticsDisabled).
  const attempting = (getConfig() as { _disableExpensiveErrorDiagnostics?: boolean })._disableExpensiveErrorDiagnostics
  if (!attempting) return printingElementError(message, container)
  const error = new Error(message ?? '')
  error.name = 'TestingLibraryElementError'
  return error
}
elementError[printing] = printingElementError
configure({ getElementError: elementError })

type ModuleNode = { promise?: Promise<unknown>; evaluated?: boolean }
/** Module evaluations still in flight in this worker (Vitest's own registry, as its runner waits for them). */
function loadingModules(): Promise<unknown>[] {
  const state = (
    globalThis as { __vitest_worker__?: { evaluatedModules?: { idToModuleMap: Map<string, ModuleNode> } } }
  ).__vitest_worker__
  const modules = state?.evaluatedModules?.idToModuleMap
  if (!modules)
    throw new Error('src/testing/setup.ts: Vitest no longer exposes its module registry; see vitest.config.ts isolate')
  return [...modules.values()].filter((node) => node.promise && !node.evaluated).map((node) => node.promise!)
}

beforeAll(() =>
  server.listen({
    onUnhandledRequest: (request) => {
      throw new Error(`Unhandled ${request.method} ${request.url}: add an MSW handler for it`)
    },
  }),
)
afterEach(() => {
  cleanup()
  server.resetHandlers()
  window.localStorage.clear()
  window.sessionStorage.clear()
})
afterAll(async () => {
  for (let pending = loadingModules(); pending.length; pending = loadingModules()) await Promise.allSettled(pending)
  server.close()
})
