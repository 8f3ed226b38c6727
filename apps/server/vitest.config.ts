import { packageConfig } from '../../vitest.shared';

const config = packageConfig({
  test: { testTimeout: 30_000, hookTimeout: 60_000, fileParallelism: false },
});
// The server resolves externals (pg, pg-pool, ...) the way Node does. The shared list also carries
// 'import', which Vitest hands to Node's require too, so pg's require('pg-pool') got the ESM
// wrapper ("Class extends value [object Module]"). mergeConfig concatenates arrays, so replace.
const conditions = ['source', 'node'];
config.resolve = { ...config.resolve, conditions };
config.ssr = {
  ...config.ssr,
  resolve: { ...config.ssr?.resolve, conditions, externalConditions: ['source'] },
};

export default config;
