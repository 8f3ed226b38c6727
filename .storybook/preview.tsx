import type { Decorator, Preview } from '@storybook/react-vite';
import '../packages/ui/src/styles.css';
import './storybook.css';
import { UiProvider } from '../packages/ui/src/provider';
import { defaultMode, isModeName, modeNames, modes } from './modes';

/** Applies the selected mode (theme + language/direction) through the kit's own provider. */
const withMode: Decorator = (Story, context) => {
  const name = isModeName(context.globals.mode) ? context.globals.mode : defaultMode;
  const { theme, locale } = modes[name];
  return (
    <UiProvider
      locale={locale}
      theme={theme}
      className="min-h-screen bg-background p-4 font-sans text-foreground"
    >
      <Story />
    </UiProvider>
  );
};

const preview: Preview = {
  decorators: [withMode],
  globalTypes: {
    mode: {
      description: 'Theme and language (direction follows the language)',
      toolbar: {
        title: 'Mode',
        icon: 'mirror',
        items: modeNames.map((value) => ({ value, title: value })),
        dynamicTitle: true,
      },
    },
  },
  initialGlobals: { mode: defaultMode },
  parameters: {
    layout: 'fullscreen',
    controls: { expanded: true },
    // Every story is an accessibility test: violations fail in Vitest (addon-vitest).
    a11y: { test: 'error' },
    chromatic: {
      modes: Object.fromEntries(modeNames.map((m) => [m, { mode: m }])),
      pauseAnimationAtEnd: true,
    },
  },
};

export default preview;
