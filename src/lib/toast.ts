/** Toast durations from SPEC §9. */
export const TOAST_DURATION_MS = 1_000_000
export const VERIFICATION_TOAST_DURATION_MS = 10_000
