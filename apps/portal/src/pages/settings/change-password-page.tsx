import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { changePasswordInputSchema } from '@fleet/api-client';
import { useSchemaForm } from '../../forms/use-form';
import { useServices } from '../../state/app-context';
import { usePageReady } from '../../state/use-page-ready';
import { Button, Card, FormField, InlineAlert, Input, PageHeader } from '@fleet/ui';

const FIELDS = ['current_password', 'password', 'password_confirmation'] as const;

/** settings/change-password: current, new and confirmation, validated by the shared contract. */
export default function ChangePasswordPage() {
  const { t } = useTranslation('settings');
  const { api, toasts } = useServices();
  const [done, setDone] = useState(false);
  usePageReady(true);
  const labels: Record<(typeof FIELDS)[number], string> = {
    current_password: t('changePassword.current'),
    password: t('changePassword.password'),
    password_confirmation: t('changePassword.confirm'),
  };
  const form = useSchemaForm(
    changePasswordInputSchema,
    { current_password: '', password: '', password_confirmation: '' },
    (f) => labels[f as keyof typeof labels],
  );
  return (
    <div data-testid="change-password">
      <PageHeader className="mb-4" title={t('changePassword.title')} />
      <Card className="max-w-lg">
        {done ? (
          <p role="status" className="text-success">
            {t('changePassword.success')}
          </p>
        ) : (
          <form
            noValidate
            className="flex flex-col gap-4"
            onSubmit={(e) => {
              e.preventDefault();
              void form.submit(
                (v) => v,
                async (body) => {
                  await api.request('auth.changePassword', { body });
                  toasts.show({ kind: 'success', message: t('changePassword.success') });
                  setDone(true);
                },
              );
            }}
          >
            {FIELDS.map((name) => (
              <FormField key={name} id={`cp-${name}`} label={labels[name]} error={form.errors[name]}>
                <Input
                  id={`cp-${name}`}
                  kind="password"
                  autoComplete={name === 'current_password' ? 'current-password' : 'new-password'}
                  value={form.values[name]}
                  aria-invalid={Boolean(form.errors[name])}
                  onChange={(e) => form.set(name, e.target.value)}
                />
              </FormField>
            ))}
            {form.formError ? <InlineAlert>{form.formError}</InlineAlert> : null}
            <Button type="submit" loading={form.submitting} data-testid="change-password-submit">
              {t('changePassword.submit')}
            </Button>
          </form>
        )}
      </Card>
    </div>
  );
}
