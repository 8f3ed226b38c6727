import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { changePasswordInputSchema } from '@fleet/api-client';
import { Button } from '../../components/kit';
import { Card, ErrorBox, Field, PageHeader, TextInput } from '../../components/local-ui';
import { useSchemaForm } from '../../forms/use-form';
import { useServices } from '../../state/app-context';
import { usePageReady } from '../../state/use-page-ready';

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
      <PageHeader title={t('changePassword.title')} />
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
              <Field key={name} id={`cp-${name}`} label={labels[name]} error={form.errors[name]}>
                <TextInput
                  id={`cp-${name}`}
                  type="password"
                  autoComplete={name === 'current_password' ? 'current-password' : 'new-password'}
                  value={form.values[name]}
                  aria-invalid={Boolean(form.errors[name])}
                  onChange={(e) => form.set(name, e.target.value)}
                />
              </Field>
            ))}
            {form.formError ? <ErrorBox message={form.formError} /> : null}
            <Button type="submit" loading={form.submitting} data-testid="change-password-submit">
              {t('changePassword.submit')}
            </Button>
          </form>
        )}
      </Card>
    </div>
  );
}
