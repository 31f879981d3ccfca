import { describe, expect, it } from 'vitest'
import { fireEvent, render, screen } from '@testing-library/react'
import { EntityImage } from '@/components/entity-image'

describe('EntityImage', () => {
  it('shows the picture when it loads', () => {
    const { container } = render(<EntityImage src="https://cdn.example.com/a.png" name="Pat Notes" size={40} />)
    expect(container.querySelector('img')).toHaveAttribute('src', 'https://cdn.example.com/a.png')
    expect(screen.queryByTestId('image-fallback')).toBeNull()
  })

  it('shows the first letter instead of a broken image when the picture fails', () => {
    const { container } = render(<EntityImage src="https://cdn.example.com/missing.png" name="pat notes" size={40} />)
    fireEvent.error(container.querySelector('img')!)
    expect(container.querySelector('img')).toBeNull()
    expect(screen.getByTestId('image-fallback')).toHaveTextContent('P')
  })

  it('shows the letter at once when there is no address or one it would not load', () => {
    const { rerender } = render(<EntityImage src={null} name="Deal Blaster" size={40} />)
    expect(screen.getByTestId('image-fallback')).toHaveTextContent('D')
    rerender(<EntityImage src="javascript:alert(1)" name="Deal Blaster" size={40} />)
    expect(screen.getByTestId('image-fallback')).toHaveTextContent('D')
  })

  it('gives a new address its own chance after an old one failed', () => {
    const { container, rerender } = render(<EntityImage src="https://cdn.example.com/old.png" name="Pat" size={40} />)
    fireEvent.error(container.querySelector('img')!)
    rerender(<EntityImage src="https://cdn.example.com/new.png" name="Pat" size={40} />)
    expect(container.querySelector('img')).toHaveAttribute('src', 'https://cdn.example.com/new.png')
  })
})
