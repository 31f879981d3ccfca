// The deposit dialog: every bad amount refused in the form with the function's words and no call made;
// what will be charged stated as the amount is typed; Continue calls create-checkout-session with the
// amount and goes to the URL it answers; the function's own refusal shows next to the field and in a toast.
import { describe, expect, it, vi } from 'vitest'
import { http, HttpResponse } from 'msw'
import { render, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { AppProviders } from '@/app/providers'
import { Button } from '@/components/ui/button'
import { DepositDialog } from '@/features/wallet/components/deposit-dialog'
import { DEPOSIT_MESSAGES as depositMessages } from '@rules/deposit'
import { functionsUrl, server } from '../../testing/msw-server'

function setup(
  answer: () => Response = () => HttpResponse.json({ url: 'https://checkout.stripe.com/c/pay/cs_test_1' }),
) {
  const calls: unknown[] = []
  server.use(
    http.post(functionsUrl('create-checkout-session'), async ({ request }) => {
      calls.push(await request.json())
      return answer()
    }),
  )
  const redirect = vi.fn()
  const user = userEvent.setup()
  render(
    <AppProviders>
      <DepositDialog trigger={<Button>Add funds</Button>} redirect={redirect} />
    </AppProviders>,
  )
  return { calls, redirect, user }
}

async function open(user: ReturnType<typeof userEvent.setup>) {
  await user.click(screen.getByRole('button', { name: 'Add funds' }))
  return screen.findByRole('dialog', { name: 'Add funds' })
}

const amountField = () => screen.getByLabelText('Amount (credits)')

describe('deposit dialog', () => {
  it.each([
    ['', depositMessages.missing],
    ['   ', depositMessages.missing],
    ['abc', depositMessages.notNumber],
    ['NaN', depositMessages.notNumber],
    ['1,000', depositMessages.notNumber],
    ['9.99', depositMessages.tooSmall],
    ['-25', depositMessages.tooSmall],
    ['10000.01', depositMessages.tooLarge],
    ['25.505', depositMessages.decimals],
  ])('refuses %j with “%s” before any call', async (typed, message) => {
    const { calls, redirect, user } = setup()
    await open(user)
    if (typed) await user.type(amountField(), typed)
    await user.click(screen.getByRole('button', { name: 'Continue' }))
    expect(await screen.findByText(message)).toBeInTheDocument()
    expect(amountField()).toHaveAttribute('aria-invalid', 'true')
    expect(calls).toEqual([])
    expect(redirect).not.toHaveBeenCalled()
  })

  it('states what will be charged as the amount is typed', async () => {
    const { user } = setup()
    await open(user)
    expect(screen.getByTestId('deposit-charge')).toHaveTextContent('Enter an amount to see what you will be charged.')
    await user.type(amountField(), '25')
    expect(screen.getByTestId('deposit-charge')).toHaveTextContent(
      'You will be charged $25.00 (USD) on the secure payment page; 25.00 credits are added to your wallet once the payment is confirmed.',
    )
    await user.clear(amountField())
    await user.type(amountField(), '10000')
    expect(screen.getByTestId('deposit-charge')).toHaveTextContent('You will be charged $10,000.00 (USD)')
  })

  it('sends a valid amount with two decimals as a number and goes to the checkout', async () => {
    const { calls, redirect, user } = setup()
    await open(user)
    await user.type(amountField(), '25.50')
    await user.click(screen.getByRole('button', { name: 'Continue' }))
    await waitFor(() => expect(redirect).toHaveBeenCalledWith('https://checkout.stripe.com/c/pay/cs_test_1'))
    expect(calls).toEqual([{ amount: 25.5 }])
    expect(screen.getByRole('button', { name: 'Opening the payment page…' })).toBeDisabled()
  })

  it('shows the function’s refusal next to the field and in a toast, and stays open', async () => {
    const { redirect, user } = setup(() =>
      HttpResponse.json(
        { error: 'Only advertiser accounts have a wallet to fund. Sign in with your advertiser account to add funds.' },
        { status: 403 },
      ),
    )
    await open(user)
    await user.type(amountField(), '10')
    await user.click(screen.getByRole('button', { name: 'Continue' }))
    const message = 'Only advertiser accounts have a wallet to fund. Sign in with your advertiser account to add funds.'
    expect(await screen.findByRole('alert')).toHaveTextContent(message)
    expect(await screen.findByText(`Failed to start the payment: ${message}`)).toBeInTheDocument()
    expect(screen.getByRole('dialog', { name: 'Add funds' })).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Continue' })).toBeEnabled()
    expect(redirect).not.toHaveBeenCalled()
  })
})
