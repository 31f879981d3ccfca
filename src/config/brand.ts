/** The product's name and promise, in one place so an operator can rename the product. */
export const brand = {
  name: 'Growletter',
  tagline: 'The best platform to connect newsletters to influencers for explosive newsletter growth.',
  productHuntUrl: 'https://www.producthunt.com/products/growletter',
  supportEmail: 'support@growletter.app',
} as const
