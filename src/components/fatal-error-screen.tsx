/** Shown when the application cannot start at all (SPEC §2: 'Application Error' with a refresh button). */
export function FatalErrorScreen({ error }: { error: unknown }) {
  const message = error instanceof Error ? error.message : String(error)
  return (
    <main role="alert" className="flex min-h-screen flex-col items-center justify-center gap-4 p-6 text-center">
      <h1 className="text-2xl font-bold">Application Error</h1>
      <p className="max-w-xl text-sm whitespace-pre-line text-muted-foreground">{message}</p>
      <button
        type="button"
        onClick={() => window.location.reload()}
        className="rounded-md bg-primary px-4 py-2 text-sm font-medium text-primary-foreground hover:bg-primary-hover"
      >
        Refresh
      </button>
    </main>
  )
}
