-- Device gateway and commands (issue 5).
-- Why a command failed or timed out, shown in the command history (deviceCommandSchema.error).
ALTER TABLE device_commands ADD COLUMN IF NOT EXISTS error text;
-- Gateway claims queued commands of a device when it connects.
CREATE INDEX IF NOT EXISTS device_commands_pending ON device_commands (device_id, created_at)
  WHERE status IN ('queued', 'sent');
