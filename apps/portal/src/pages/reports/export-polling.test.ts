import { describe, expect, it } from 'vitest';
import { EXPORT_POLL_MS, exportFinished, exportPollInterval } from './export-polling';

describe('export polling', () => {
  it('polls every second while the job is queued or running, and before the first answer', () => {
    expect(exportPollInterval({ status: 'queued' })).toBe(EXPORT_POLL_MS);
    expect(exportPollInterval({ status: 'running' })).toBe(EXPORT_POLL_MS);
    expect(exportPollInterval(undefined)).toBe(EXPORT_POLL_MS);
    expect(EXPORT_POLL_MS).toBe(1_000);
  });

  it('stops once the job completed or failed', () => {
    expect(exportPollInterval({ status: 'completed' })).toBe(false);
    expect(exportPollInterval({ status: 'failed' })).toBe(false);
    expect(exportFinished({ status: 'failed' })).toBe(true);
    expect(exportFinished({ status: 'running' })).toBe(false);
    expect(exportFinished(null)).toBe(false);
  });
});
