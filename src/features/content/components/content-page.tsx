/** The shared layout of the text pages (help, legal, about): a readable column with a heading and sections. */
import type { ReactNode } from 'react'

type ContentPageProps = { title: string; intro?: ReactNode; updated?: string; children: ReactNode }

export function ContentPage({ title, intro, updated, children }: ContentPageProps) {
  return (
    <article className="mx-auto flex max-w-3xl flex-col gap-8 px-4 py-12 sm:px-6">
      <header className="flex flex-col gap-3">
        <h1 className="text-3xl font-extrabold tracking-tight sm:text-4xl">{title}</h1>
        {updated ? <p className="text-sm text-muted-foreground">Last updated {updated}</p> : null}
        {intro ? <div className="text-lg text-muted-foreground">{intro}</div> : null}
      </header>
      {children}
    </article>
  )
}

export function ContentSection({ title, children, id }: { title: string; children: ReactNode; id?: string }) {
  const headingId = id ?? title.toLowerCase().replace(/[^a-z0-9]+/g, '-')
  return (
    <section
      aria-labelledby={headingId}
      className="flex flex-col gap-3 leading-relaxed [&_a]:text-primary [&_a]:underline [&_li]:ml-5 [&_ul]:list-disc [&_ul]:space-y-1"
    >
      <h2 id={headingId} className="text-xl font-bold tracking-tight">
        {title}
      </h2>
      {children}
    </section>
  )
}

/** A question and its answer, expandable, for help pages. */
export function Question({ q, children }: { q: string; children: ReactNode }) {
  return (
    <details className="group rounded-lg border p-4 open:bg-muted/40">
      <summary className="cursor-pointer font-medium marker:text-primary">{q}</summary>
      <div className="mt-2 flex flex-col gap-2 text-muted-foreground">{children}</div>
    </details>
  )
}
