/** Non-colour tokens. Fonts are bundled from npm (@fontsource) so screenshots match everywhere. */
export const radius = {
  none: '0px',
  xs: '2px',
  sm: '4px',
  md: '6px',
  lg: '8px',
  xl: '12px',
  full: '9999px',
} as const;

/** 4 px grid; keys are multiples of 4 px, matching Tailwind's spacing numbers. */
export const space = {
  '0': '0px',
  '1': '4px',
  '2': '8px',
  '3': '12px',
  '4': '16px',
  '5': '20px',
  '6': '24px',
  '8': '32px',
  '10': '40px',
  '12': '48px',
} as const;

/** Latin face first (Inter), then the Arabic face; each covers its own script. */
export const font = {
  sans: "Inter, 'Noto Sans Arabic', system-ui, sans-serif",
  mono: "ui-monospace, 'SFMono-Regular', Menlo, Consolas, monospace",
} as const;
