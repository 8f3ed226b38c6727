import type { ReportExportJob } from '@fleet/api-client';

/** How often a queued or running export is polled. */
export const EXPORT_POLL_MS = 1_000;

/** True once the job reached an end state (completed or failed); nothing changes after that. */
export function exportFinished(job: Pick<ReportExportJob, 'status'> | null | undefined): boolean {
  return job?.status === 'completed' || job?.status === 'failed';
}

/**
 * TanStack Query `refetchInterval` of the export poll: every second until the job ends, then off.
 * Before the first answer (no job yet) it keeps polling, so a slow first poll is not the last one.
 */
export function exportPollInterval(job: Pick<ReportExportJob, 'status'> | null | undefined): number | false {
  return exportFinished(job) ? false : EXPORT_POLL_MS;
}
