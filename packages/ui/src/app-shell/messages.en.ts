/** AppShell's own chrome strings (English); the other shell strings come from the kit messages. */
export const en = {
  skipToContent: 'Skip to main content',
} as const;
