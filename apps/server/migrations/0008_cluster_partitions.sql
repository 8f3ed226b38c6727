-- Scale-out mode (issue 9): the last owner of each locations partition of a cluster namespace and
-- whether it let go cleanly (everything it had received acked or handed back). A worker taking a
-- partition over from an owner that did NOT let go cleanly (it died) waits one JetStream ack wait
-- before reading, so the dead owner's unacked messages come back ahead of newer ones of the same
-- devices; after a clean hand-over (rebalancing, shutdown) it reads at once.
CREATE TABLE IF NOT EXISTS cluster_partitions (
  namespace text NOT NULL,
  partition int NOT NULL,
  owner text NOT NULL,
  clean boolean NOT NULL DEFAULT false,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (namespace, partition)
);
