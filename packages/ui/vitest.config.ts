import { vanillaExtractPlugin } from '@vanilla-extract/vite-plugin';
import { packageConfig } from '../../vitest.shared.ts';

/** Node unit tests of pure logic (`*.test.ts(x)` next to the code). Stories run in vitest.storybook.config.ts. */
export default packageConfig({
  plugins: [vanillaExtractPlugin()],
  test: {
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx'],
  },
});
