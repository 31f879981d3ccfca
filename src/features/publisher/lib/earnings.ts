/** Credits as the publisher screens show them (1 credit = 1 US dollar). */
export const formatCredits = (value: number) =>
  `${value.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })} credits`
