import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Button } from '@fleet/ui';
import { useServices } from '../../state/app-context';

/**
 * guardians/details: make every open tracking link of this guardian's messages stop working at once (a
 * forwarded link, a lost phone). Messages sent later carry new links.
 */
export function RevokeTrackingButton({ uuid }: { uuid: string }) {
  const { t } = useTranslation('messages');
  const { api, toasts } = useServices();
  const revoke = useMutation({
    mutationFn: () => api.request('guardians.revokeTracking', { params: { uuid } }),
    onSuccess: (answer) =>
      toasts.show({ kind: 'success', message: t('track.revoked', { n: answer.data.revoked }) }),
    onError: (error) =>
      toasts.show({ kind: 'error', message: error instanceof Error ? error.message : String(error) }),
  });
  return (
    <Button
      variant="outline"
      loading={revoke.isPending}
      onClick={() => revoke.mutate()}
      data-testid="revoke-tracking"
    >
      {t('track.revoke')}
    </Button>
  );
}
