import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Button } from '@fleet/ui';
import { useServices } from '../../state/app-context';

/** users/details: send the set-password invitation again (a new link; the earlier one stops working). */
export function ResendInvitationButton({ uuid }: { uuid: string }) {
  const { t } = useTranslation('messages');
  const { api, toasts } = useServices();
  const invite = useMutation({
    mutationFn: () => api.request('users.invite', { params: { uuid } }),
    onSuccess: (answer) => toasts.show({ kind: 'success', message: answer.message || t('invite.sent') }),
    onError: (error) =>
      toasts.show({ kind: 'error', message: error instanceof Error ? error.message : String(error) }),
  });
  return (
    <Button
      variant="outline"
      loading={invite.isPending}
      onClick={() => invite.mutate()}
      data-testid="resend-invitation"
    >
      {t('invite.action')}
    </Button>
  );
}
