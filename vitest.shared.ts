// Shared Vitest defaults: every workspace resolves sibling packages from their TypeScript sources
// through the `source` export condition, so tests never need a prebuild.
import { defineConfig, mergeConfig, type ViteUserConfig } from 'vitest/config';

export const sourceConditions = ['source', 'module', 'import', 'default'];

export function packageConfig(overrides: ViteUserConfig = {}): ViteUserConfig {
  return mergeConfig(
    defineConfig({
      resolve: { conditions: sourceConditions },
      ssr: { resolve: { conditions: sourceConditions, externalConditions: ['source'] } },
      test: {
        environment: 'node',
        include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
        restoreMocks: true,
        coverage: {
          provider: 'v8',
          include: ['src/**/*.ts'],
          exclude: ['src/**/*.test.ts', 'src/**/index.ts', 'src/**/*.d.ts'],
          reporter: ['text-summary', 'json-summary'],
        },
      },
    }),
    overrides,
  );
}
