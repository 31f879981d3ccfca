/**
 * The slide-in menu for small screens (SPEC §2, §9): a spring slide (damping 25, stiffness 300) over a
 * backdrop that fades in 0.2 s. Radix Dialog provides what a menu over the page needs: focus trapped
 * inside, Escape and backdrop taps close it, focus returns to the menu button. Closing on route change
 * is the caller's job (it owns the location). With the system's "reduce motion" setting the menu appears without
 * sliding (MotionConfig reducedMotion="user": framer-motion then skips transforms and keeps the fade).
 */
import type { ReactNode } from 'react'
import { Dialog } from 'radix-ui'
import { AnimatePresence, LazyMotion, MotionConfig, domAnimation, m } from 'framer-motion'
import { XIcon } from 'lucide-react'

export const MENU_SPRING = { type: 'spring', damping: 25, stiffness: 300 } as const
export const BACKDROP_FADE = { duration: 0.2 } as const

type MobileMenuProps = {
  open: boolean
  onOpenChange: (open: boolean) => void
  title: string
  /** The menu button; as the dialog's trigger it gets focus back when the menu closes. */
  trigger: ReactNode
  children: ReactNode
  footer: ReactNode
}

export function MobileMenu({ open, onOpenChange, title, trigger, children, footer }: MobileMenuProps) {
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Trigger asChild>{trigger}</Dialog.Trigger>
      <LazyMotion features={domAnimation} strict>
        <MotionConfig reducedMotion="user">
          <AnimatePresence>
            {open ? (
              <Dialog.Portal forceMount>
                <Dialog.Overlay asChild forceMount>
                  <m.div
                    data-testid="mobile-menu-backdrop"
                    className="fixed inset-0 z-50 bg-black/50"
                    initial={{ opacity: 0 }}
                    animate={{ opacity: 1 }}
                    exit={{ opacity: 0 }}
                    transition={BACKDROP_FADE}
                  />
                </Dialog.Overlay>
                <Dialog.Content asChild forceMount aria-describedby={undefined}>
                  <m.div
                    className="fixed inset-y-0 right-0 z-50 flex w-4/5 max-w-xs flex-col bg-background shadow-xl"
                    initial={{ x: '100%' }}
                    animate={{ x: 0 }}
                    exit={{ x: '100%' }}
                    transition={MENU_SPRING}
                  >
                    <div className="flex items-center justify-between border-b px-4 py-3">
                      <Dialog.Title className="text-base font-semibold">{title}</Dialog.Title>
                      <Dialog.Close className="rounded-md p-2 hover:bg-accent focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none">
                        <XIcon className="size-5" aria-hidden="true" />
                        <span className="sr-only">Close menu</span>
                      </Dialog.Close>
                    </div>
                    <div className="flex-1 overflow-y-auto px-3 py-4">{children}</div>
                    <div className="border-t px-4 py-4">{footer}</div>
                  </m.div>
                </Dialog.Content>
              </Dialog.Portal>
            ) : null}
          </AnimatePresence>
        </MotionConfig>
      </LazyMotion>
    </Dialog.Root>
  )
}
