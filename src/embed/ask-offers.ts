/** The frame document's first script (scripts/embed-plugin.ts): asks for the offers at once (./offers-request.ts). */
import { askOffers, embedCode } from './offers-request'

if (embedCode()) askOffers().catch(() => undefined) // the frame's script reads the answer and says what went wrong
