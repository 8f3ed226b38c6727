import { startNode } from './node';
import { ClusterConfigError } from './config';
import { ConfigError } from '../config/config';

/**
 * Entry of one cluster process: `ROLE=gateway|worker|api|all NATS_URL=... DATABASE_URL=... tsx
 * --conditions=source src/cluster/main.ts`. Prints one line `READY {json}` with where it listens (the
 * supervisor and the fault tests read it) and stops cleanly on SIGTERM / SIGINT.
 */
try {
  const node = await startNode();
  console.log(
    `READY ${JSON.stringify({ name: node.name, role: node.role, pid: process.pid, ...node.listening })}`,
  );
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    void node.close().finally(() => process.exit(0));
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
} catch (err) {
  if (err instanceof ConfigError || err instanceof ClusterConfigError) console.error(err.message);
  else console.error(err);
  process.exit(1);
}
