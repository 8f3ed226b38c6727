export { UiProvider, useUi, useLabels, uiThemes } from './ui-provider';
export type { UiProviderProps, UiContextValue, UiTheme } from './ui-provider';
