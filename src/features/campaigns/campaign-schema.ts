/**
 * What a new campaign must satisfy before it reaches the database, with messages a person can act on.
 * The database checks the same bounds again (name 2–120 characters, lengths; the price range comes from
 * supabase/functions/_shared/rules/price.ts, which the database's bound is pinned to).
 */
import { z } from 'zod'
import { hasAtMostTwoDecimals } from '@rules/numbers'
import { MAX_PRICE_PER_SUBSCRIBER, MIN_PRICE_PER_SUBSCRIBER, PRICE_MESSAGES } from '@rules/price'
import { CATEGORIES } from '@/lib/vocabulary-catalog'
import { Constants } from '@/types/database.types'
import { NEWSLETTER_FREQUENCIES } from '@/lib/vocabulary'
import { IMAGE_ADDRESS_MESSAGE, isImageAddress } from '@/lib/image-address'

const optionalUrl = (label: string) =>
  z
    .string()
    .trim()
    .max(2048, { error: `${label} is too long` })
    .refine((value) => value === '' || /^https?:\/\/\S+\.\S+/i.test(value), {
      error: `${label} must start with http:// or https://`,
    })

/** The most readers an advertiser may state (campaigns_audience_size_check). */
export const MAX_AUDIENCE_SIZE = 100_000_000
/** The longest line on who a newsletter is for (campaigns_audience_line_check). */
export const MAX_AUDIENCE_LINE = 160

/**
 * What the landing page tells about a newsletter, all optional: a sample issue (https only, like the database's
 * campaigns_sample_issue_url_check), how often it goes out, how many readers it has and who it is for. An empty
 * field is stored as null.
 */
export const newsletterFactsShape = {
  sampleIssueUrl: z
    .string()
    .trim()
    .max(2048, { error: 'Sample issue link is too long' })
    .refine((value) => value === '' || /^https:\/\/\S+\.\S+$/i.test(value), {
      error: 'Sample issue link must be a full address starting with https://',
    }),
  frequency: z.union([z.literal(''), z.enum(NEWSLETTER_FREQUENCIES)], {
    error: 'Choose how often the newsletter goes out',
  }),
  audienceSize: z
    .string()
    .trim()
    .refine((value) => value === '' || /^\d+$/.test(value.replace(/[,\s]/g, '')), {
      error: 'Audience size must be a whole number of readers, such as 12000',
    })
    .refine((value) => value === '' || Number(value.replace(/[,\s]/g, '')) <= MAX_AUDIENCE_SIZE, {
      error: 'Audience size must be at most 100,000,000 readers',
    })
    .transform((value) => (value === '' ? null : Number(value.replace(/[,\s]/g, '')))),
  audienceLine: z
    .string()
    .trim()
    .max(MAX_AUDIENCE_LINE, { error: `Keep who it is for to ${MAX_AUDIENCE_LINE} characters or fewer` }),
}

/** The facts as the campaigns row spells them (empty → null). */
export const newsletterFactsColumns = (values: {
  sampleIssueUrl: string
  frequency: string
  audienceSize: number | null
  audienceLine: string
}) => ({
  sample_issue_url: values.sampleIssueUrl || null,
  frequency: (values.frequency || null) as (typeof NEWSLETTER_FREQUENCIES)[number] | null,
  audience_size: values.audienceSize,
  audience_line: values.audienceLine || null,
})

export const campaignFormSchema = z
  .object({
    name: z
      .string()
      .trim()
      .min(2, { error: 'Name must be at least 2 characters' })
      .max(120, { error: 'Name must be at most 120 characters' }),
    description: z.string().trim().max(2000, { error: 'Description must be at most 2,000 characters' }),
    imageUrl: z
      .string()
      .trim()
      .max(2048, { error: 'Image URL is too long' })
      .refine(isImageAddress, { error: IMAGE_ADDRESS_MESSAGE }),
    category: z.enum(CATEGORIES, { error: 'Choose a category' }),
    websiteUrl: optionalUrl('Website URL').refine((value) => value !== '', { error: 'Website URL is required' }),
    pricePerSubscriber: z
      .number({ error: PRICE_MESSAGES.missing })
      .min(MIN_PRICE_PER_SUBSCRIBER, { error: PRICE_MESSAGES.tooLow })
      .max(MAX_PRICE_PER_SUBSCRIBER, { error: PRICE_MESSAGES.tooHigh })
      .refine(hasAtMostTwoDecimals, { error: PRICE_MESSAGES.decimals }),
    budgetTotal: z
      .number({ error: 'Enter a budget' })
      .positive({ error: 'Budget must be more than 0 credits' })
      .max(1_000_000, { error: 'Budget must be at most 1,000,000 credits' }),
    /** Who may promote it (campaigns.partner_mode); open unless the advertiser picks approval. */
    partnerMode: z.enum(Constants.public.Enums.partner_mode, { error: 'Choose who may promote it' }).default('open'),
    ...newsletterFactsShape,
  })
  .refine((values) => values.budgetTotal >= values.pricePerSubscriber, {
    error: 'Budget must cover at least one subscriber at your price',
    path: ['budgetTotal'],
  })

export type CampaignFormValues = z.infer<typeof campaignFormSchema>
export type CampaignFormInput = z.input<typeof campaignFormSchema>

/** Editing a listed newsletter's public fields (after approval they become a revision an admin reviews). */
export const campaignEditSchema = z.object({
  name: campaignFormSchema.shape.name,
  description: campaignFormSchema.shape.description,
  imageUrl: campaignFormSchema.shape.imageUrl,
  category: campaignFormSchema.shape.category,
  websiteUrl: campaignFormSchema.shape.websiteUrl,
  ...newsletterFactsShape,
})
export type CampaignEditValues = z.infer<typeof campaignEditSchema>
export type CampaignEditInput = z.input<typeof campaignEditSchema>

/** A new budget: the database refuses going below what is spent, on hold or reserved, with the amount. */
export const campaignBudgetSchema = (committed: number) =>
  z.object({
    budgetTotal: z
      .number({ error: 'Enter a budget' })
      .max(1_000_000, { error: 'Budget must be at most 1,000,000 credits' })
      .refine((value) => Math.round(value * 100) === value * 100, { error: 'Use at most two decimals' })
      .refine((value) => value >= committed, {
        error: `The budget can't be lower than what is already spent, on hold or reserved (${committed.toFixed(2)} credits)`,
      }),
  })

/** A new price per subscriber: the same range as on submit; it applies to new subscriptions only. */
export const campaignPriceSchema = z.object({ pricePerSubscriber: campaignFormSchema.shape.pricePerSubscriber })

/** The pay rule form: the database checks the same (private.guard_pay_rule), with the same words. */
export const campaignPayRuleSchema = z.object({
  payRule: z.enum(['confirmed', 'engaged'], { error: 'Choose to pay per confirmed reader or per engaged reader' }),
  engagementWindowDays: z
    .number({ error: 'Choose an engagement window of 7 to 30 days' })
    .int({ error: 'Choose an engagement window of 7 to 30 days' })
    .min(7, { error: 'Choose an engagement window of 7 to 30 days' })
    .max(30, { error: 'Choose an engagement window of 7 to 30 days' }),
})
export type CampaignPayRuleValues = z.infer<typeof campaignPayRuleSchema>
