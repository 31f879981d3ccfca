/** /dashboard/admin/catalog: every live or banned source and newsletter, to ban or reinstate with a reason. */
import { PageHeader } from '@/components/page-header'
import { CatalogPanel } from '@/features/review/components/catalog-panel'

export default function AdminCatalogPage() {
  return (
    <>
      <PageHeader
        title="Sources & newsletters"
        description="Ban anything approved that breaks the rules, or reinstate what was banned. The owner is told why."
      />
      <div className="space-y-8">
        <section aria-labelledby="catalog-sources" className="space-y-3">
          <h2 id="catalog-sources" className="text-xl font-semibold">
            Sources
          </h2>
          <CatalogPanel kind="sources" />
        </section>
        <section aria-labelledby="catalog-campaigns" className="space-y-3">
          <h2 id="catalog-campaigns" className="text-xl font-semibold">
            Newsletters
          </h2>
          <CatalogPanel kind="campaigns" />
        </section>
      </div>
    </>
  )
}
