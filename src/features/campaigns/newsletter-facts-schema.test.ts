import { describe, expect, it } from 'vitest'
import { campaignEditSchema, newsletterFactsColumns } from '@/features/campaigns/campaign-schema'

const base = {
  name: 'Morning Brew',
  description: '',
  imageUrl: '',
  category: 'business',
  websiteUrl: 'https://x.example',
}
const facts = { sampleIssueUrl: '', frequency: '', audienceSize: '', audienceLine: '' }
const parse = (overrides: Partial<typeof facts>) => campaignEditSchema.safeParse({ ...base, ...facts, ...overrides })
const messages = (overrides: Partial<typeof facts>) => {
  const result = parse(overrides)
  return result.success ? [] : result.error.issues.map((issue) => issue.message)
}

describe("the newsletter form's page facts", () => {
  it('are optional: empty fields become nulls in the row', () => {
    const result = parse({})
    expect(result.success).toBe(true)
    expect(newsletterFactsColumns(result.data!)).toEqual({
      sample_issue_url: null,
      frequency: null,
      audience_size: null,
      audience_line: null,
    })
  })

  it('take a https link, a frequency from the vocabulary, a whole number (commas allowed) and a short line', () => {
    const result = parse({
      sampleIssueUrl: ' https://brew.example/issues/9 ',
      frequency: 'every_two_weeks',
      audienceSize: '1,200',
      audienceLine: 'Founders',
    })
    expect(newsletterFactsColumns(result.data!)).toEqual({
      sample_issue_url: 'https://brew.example/issues/9',
      frequency: 'every_two_weeks',
      audience_size: 1200,
      audience_line: 'Founders',
    })
    expect(messages({ audienceSize: '0' })).toEqual([])
    expect(messages({ audienceSize: '100000000' })).toEqual([])
    expect(messages({ audienceLine: 'a'.repeat(160) })).toEqual([])
  })

  it('refuse what the database refuses, in sentences', () => {
    expect(messages({ sampleIssueUrl: 'http://brew.example/issues/9' })).toEqual([
      'Sample issue link must be a full address starting with https://',
    ])
    expect(messages({ sampleIssueUrl: 'javascript:alert(1)' })).toEqual([
      'Sample issue link must be a full address starting with https://',
    ])
    expect(messages({ frequency: 'hourly' })).toEqual(['Choose how often the newsletter goes out'])
    expect(messages({ audienceSize: '-1' })).toEqual(['Audience size must be a whole number of readers, such as 12000'])
    expect(messages({ audienceSize: '2.5' })).toEqual([
      'Audience size must be a whole number of readers, such as 12000',
    ])
    expect(messages({ audienceSize: '100000001' })).toEqual(['Audience size must be at most 100,000,000 readers'])
    expect(messages({ audienceLine: 'a'.repeat(161) })).toEqual(['Keep who it is for to 160 characters or fewer'])
  })
})
