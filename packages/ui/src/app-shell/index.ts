// The shell's parts live in their own folders (one folder per component); they are re-exported
// here too so `@fleet/ui`'s public names and existing imports of '../app-shell' stay the same.
export { AppShell, sidebarRecipe, appShellNavModes } from './app-shell';
export type { AppShellProps, AppShellLabels, AppShellNavMode } from './app-shell';
export * from '../side-nav';
export * from '../company-switcher';
export * from '../language-switcher';
export * from '../breadcrumbs';
export * from '../page-header';
