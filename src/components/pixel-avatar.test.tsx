import { describe, expect, it } from 'vitest'
import { render, screen } from '@testing-library/react'
import { PIXEL_GRID_SIZE, UserAvatar, firstLetter, pixelAvatarPattern } from '@/components/pixel-avatar'

describe('pixel avatar', () => {
  it('draws the same picture for the same email, every time', () => {
    expect(pixelAvatarPattern('ada@example.com')).toEqual(pixelAvatarPattern('ada@example.com'))
  })

  it('ignores case and surrounding spaces in the email', () => {
    expect(pixelAvatarPattern('  Ada@Example.COM ')).toEqual(pixelAvatarPattern('ada@example.com'))
  })

  it('draws different pictures for different emails', () => {
    const emails = ['ada@example.com', 'pat@example.com', 'sam@example.com', 'lena@example.com', 'jo@example.com']
    const patterns = new Set(emails.map((email) => JSON.stringify(pixelAvatarPattern(email))))
    expect(patterns.size).toBe(emails.length)
  })

  it('is a mirrored 5×5 grid', () => {
    const { cells } = pixelAvatarPattern('mirror@example.com')!
    expect(cells).toHaveLength(PIXEL_GRID_SIZE * PIXEL_GRID_SIZE)
    for (let row = 0; row < PIXEL_GRID_SIZE; row += 1) {
      const line = cells.slice(row * PIXEL_GRID_SIZE, (row + 1) * PIXEL_GRID_SIZE)
      expect(line).toEqual([...line].reverse())
    }
  })

  it('has nothing to draw without an email, so the first letter is the fallback', () => {
    expect(pixelAvatarPattern('')).toBeNull()
    expect(pixelAvatarPattern(null)).toBeNull()
    expect(firstLetter('zoe@example.com')).toBe('Z')
    expect(firstLetter(undefined)).toBe('?')
  })

  it('renders the pixel art for an email and the letter without one', () => {
    const { container, rerender } = render(<UserAvatar email="ada@example.com" />)
    expect(screen.getByTestId('pixel-avatar')).toBeInTheDocument()
    expect(container.querySelectorAll('rect').length).toBe(
      pixelAvatarPattern('ada@example.com')!.cells.filter(Boolean).length,
    )
    rerender(<UserAvatar email="" />)
    expect(screen.queryByTestId('pixel-avatar')).not.toBeInTheDocument()
    expect(screen.getByText('?')).toBeInTheDocument()
  })

  it('prefers the image the user set', () => {
    const { container } = render(<UserAvatar email="ada@example.com" imageUrl="https://img.example.com/ada.png" />)
    expect(container.querySelector('img')).toHaveAttribute('src', 'https://img.example.com/ada.png')
  })
})
