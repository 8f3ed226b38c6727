import { intlLocale } from '@fleet/core';
import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Button, DetailSection, InlineAlert } from '@fleet/ui';
import { useServices, useSession } from '../state/app-context';
import { replayResultOf } from './replay-result';

/** Printable view of a frame: text protocols as text, binary ones as hex. */
function frameText(hex: string): string {
  const bytes = hex.match(/../g)?.map((h) => parseInt(h, 16)) ?? [];
  const printable = bytes.every((b) => b === 9 || b === 10 || b === 13 || (b >= 32 && b < 127));
  return printable ? String.fromCharCode(...bytes) : hex;
}

/**
 * Frame counters (decoded, refused, archived per protocol) for everyone who sees the device, and the
 * raw-frame archive with its replay action for super admins (the server enforces it too).
 */
export function FramesPanel({ deviceUuid }: { deviceUuid: string }) {
  const { t, i18n } = useTranslation('devices');
  const { api } = useServices();
  const { user } = useSession();
  const queryClient = useQueryClient();
  const superAdmin = user?.user_type === 'super_admin';
  const counters = useQuery({
    queryKey: ['frame-counters', deviceUuid],
    queryFn: ({ signal }) => api.request('devices.frameCounters', { params: { uuid: deviceUuid }, signal }),
  });
  const frames = useQuery({
    queryKey: ['raw-frames', deviceUuid],
    enabled: superAdmin,
    queryFn: ({ signal }) =>
      api.request('devices.rawFrames', { params: { uuid: deviceUuid }, query: { limit: 100 }, signal }),
  });
  const [replaying, setReplaying] = useState(false);
  const [result, setResult] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const lang = i18n.language;

  const replay = async () => {
    setReplaying(true);
    setError(null);
    try {
      const answer = await api.request('devices.rawFramesReplay', { params: { uuid: deviceUuid }, body: {} });
      setResult(
        t('frames.replayDone', {
          frames: answer.data.length,
          stored: answer.data.reduce((n, o) => n + o.stored, 0),
        }),
      );
      await queryClient.invalidateQueries({ queryKey: ['raw-frames', deviceUuid] });
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setReplaying(false);
    }
  };

  const rows = counters.data?.data ?? [];
  return (
    <DetailSection title={t('frames.title')}>
      <div data-testid="frame-counters" className="flex flex-col gap-4">
        {rows.length === 0 ? (
          <p className="text-sm text-foreground-muted">{t('frames.noCounts')}</p>
        ) : (
          <table className="w-full text-sm">
            <thead>
              <tr className="text-start text-foreground-muted">
                <th className="text-start font-medium">{t('frames.protocol')}</th>
                <th className="text-end font-medium">{t('frames.decoded')}</th>
                <th className="text-end font-medium">{t('frames.refused')}</th>
                <th className="text-end font-medium">{t('frames.archived')}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.protocol}>
                  <td>{r.protocol}</td>
                  <td className="text-end tabular-nums">{r.decoded.toLocaleString(intlLocale(lang))}</td>
                  <td className="text-end tabular-nums">{r.refused.toLocaleString(intlLocale(lang))}</td>
                  <td className="text-end tabular-nums">{r.archived.toLocaleString(intlLocale(lang))}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        {superAdmin ? (
          <div data-testid="raw-frames" className="flex flex-col gap-2">
            <h3 className="font-medium text-foreground">{t('frames.archiveTitle')}</h3>
            <p className="text-sm text-foreground-muted">{t('frames.archiveIntro')}</p>
            {(frames.data?.data ?? []).length === 0 ? (
              <p className="text-sm text-foreground-muted">{t('frames.empty')}</p>
            ) : (
              <ul className="flex flex-col gap-2">
                {frames.data!.data.map((f) => (
                  <li
                    key={f.id}
                    className="rounded-md border border-border p-2 text-sm"
                    data-testid="raw-frame"
                  >
                    <p>
                      {t('frames.receivedAt')}: {new Date(f.received_at).toLocaleString(intlLocale(lang))} ·{' '}
                      {f.protocol} · {t('frames.seen')}: {f.seen_count} · {t('frames.remote')}:{' '}
                      <bdi dir="ltr">{f.remote_address ?? '—'}</bdi>
                    </p>
                    <p>
                      {t('frames.reason')}: <bdi dir="ltr">{f.reason}</bdi>
                    </p>
                    <p>
                      {t('frames.replayed')}:{' '}
                      {f.replay_result === null ? (
                        t('frames.notReplayed')
                      ) : (
                        <ReplayResult text={f.replay_result} />
                      )}
                    </p>
                    <pre
                      dir="ltr"
                      className="mt-1 overflow-x-auto whitespace-pre-wrap break-all font-mono text-xs"
                    >
                      {frameText(f.bytes_hex)}
                    </pre>
                  </li>
                ))}
              </ul>
            )}
            <div>
              <Button
                type="button"
                loading={replaying}
                disabled={(frames.data?.data ?? []).length === 0}
                onClick={() => void replay()}
                data-testid="raw-frames-replay"
              >
                {replaying ? t('frames.replaying') : t('frames.replay')}
              </Button>
            </div>
            {result ? (
              <p role="status" className="text-sm">
                {result}
              </p>
            ) : null}
            {error ? <InlineAlert>{error}</InlineAlert> : null}
          </div>
        ) : null}
      </div>
    </DetailSection>
  );
}

/** A stored replay result in the reader's language, with the decoder's reason (if any) as sent. */
function ReplayResult({ text }: { text: string }) {
  const { t } = useTranslation('devices');
  const { code, detail } = replayResultOf(text);
  return (
    <>
      {code ? t(`frames.result.${code}`) : null}
      {detail ? (
        <>
          {code ? ': ' : null}
          <bdi dir="ltr">{detail}</bdi>
        </>
      ) : null}
    </>
  );
}
