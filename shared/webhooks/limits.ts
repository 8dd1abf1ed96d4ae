/**
 * Attempts kept on a delivery: three whole chains of the default schedule (8 attempts each) and
 * one more. Older ones are dropped as new ones come (attempt numbers keep counting), which bounds
 * the delivery item's size — and so the write units every attempt costs — at about 30 KB.
 * (Its own module: the delivery worker reads it without the API's schemas.)
 */
export const MAX_KEPT_ATTEMPTS = 25;
