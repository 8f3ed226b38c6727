import { packageConfig } from '../../vitest.shared';

export default packageConfig({
  test: { coverage: { thresholds: { lines: 95, branches: 95, functions: 95, statements: 95 } } },
});
