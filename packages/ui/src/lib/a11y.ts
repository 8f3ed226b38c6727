/**
 * Story parameter for stories that end with a Radix modal layer open (Dialog, Select). Radix
 * hides everything behind the layer with aria-hidden while focus is trapped inside it, so the
 * focusable elements behind are unreachable by design; axe cannot see the trap and reports
 * aria-hidden-focus. Only that rule is switched off; every other check still runs.
 */
export const modalLayerA11y = {
  a11y: { config: { rules: [{ id: 'aria-hidden-focus', enabled: false }] } },
} as const;
