import { packageConfig } from '../../vitest.shared';

// The flow test starts the real server (PGlite); resolve its Node dependencies the way the server's
// own config does (see apps/server/vitest.config.ts).
const config = packageConfig({ test: { testTimeout: 30_000, hookTimeout: 60_000 } });
const conditions = ['source', 'node'];
config.resolve = { ...config.resolve, conditions };
config.ssr = {
  ...config.ssr,
  resolve: { ...config.ssr?.resolve, conditions, externalConditions: ['source'] },
};

export default config;
