/**
 * Whose figures an analytics view shows: one campaign (the advertiser's analytics; admins too) or one source
 * (admins). The figure functions take either; a plain string is a campaign id, as the advertiser's screens pass it.
 */
export type FigureScope = string | { kind: 'campaign' | 'source'; id: string }

export const scopeArgs = (scope: FigureScope) =>
  typeof scope === 'string' || scope.kind === 'campaign'
    ? { p_campaign_id: typeof scope === 'string' ? scope : scope.id }
    : { p_source_id: scope.id }

/** The key part of a scope: a campaign keeps its bare id (the advertiser's keys), a source is prefixed. */
export const scopeKey = (scope: FigureScope) =>
  typeof scope === 'string' ? scope : scope.kind === 'campaign' ? scope.id : `source:${scope.id}`
