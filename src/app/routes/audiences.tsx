/** `/audiences`: the public directory of audience sources (SPEC §2). */
import { AudienceDirectory } from '@/features/audiences/components/audience-directory'

export default function AudiencesPage() {
  return <AudienceDirectory />
}
