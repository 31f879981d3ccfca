/** /dashboard/publisher/disputes/:disputeId: one dispute about the publisher's source, to read and answer. */
import { useParams } from 'react-router-dom'
import { PublisherDisputeView } from '@/features/disputes/components/publisher-dispute'

export default function PublisherDisputePage() {
  const { disputeId = '' } = useParams()
  return <PublisherDisputeView key={disputeId} disputeId={disputeId} />
}
