import { packageConfig } from '../../vitest.shared';

export default packageConfig({
  test: { include: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'scripts/**/*.test.ts'] },
});
