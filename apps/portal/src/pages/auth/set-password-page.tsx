import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router-dom';
import { setPasswordInputSchema } from '@fleet/api-client';
import { useSchemaForm } from '../../forms/use-form';
import { useServices } from '../../state/app-context';
import { usePageReady } from '../../state/use-page-ready';
import { Button, Card, FormField, InlineAlert, Input } from '@fleet/ui';

/** set-password/{token}: the invitation link of a new user. */
export default function SetPasswordPage() {
  const { t } = useTranslation('auth');
  const { token = '' } = useParams();
  const { api } = useServices();
  const [done, setDone] = useState(false);
  usePageReady(true);
  const form = useSchemaForm(setPasswordInputSchema, { password: '', password_confirmation: '' }, (f) =>
    f === 'password' ? t('setPassword.password') : t('setPassword.confirm'),
  );
  if (done) {
    return (
      <Card>
        <p role="status" className="mb-4 text-foreground">
          {t('setPassword.success')}
        </p>
        <Link className="text-primary underline" to="/login">
          {t('resetPassword.backToLogin')}
        </Link>
      </Card>
    );
  }
  return (
    <Card>
      <h1 className="text-2xl font-semibold text-foreground">{t('setPassword.title')}</h1>
      <p className="mb-4 text-sm text-foreground-muted">{t('setPassword.subtitle')}</p>
      <form
        noValidate
        className="flex flex-col gap-4"
        onSubmit={(e) => {
          e.preventDefault();
          void form.submit(
            (v) => v,
            async (body) => {
              await api.request('auth.setPassword', { params: { token }, body });
              setDone(true);
            },
          );
        }}
      >
        <FormField id="sp-password" label={t('setPassword.password')} error={form.errors.password}>
          <Input
            id="sp-password"
            kind="password"
            autoComplete="new-password"
            value={form.values.password}
            aria-invalid={Boolean(form.errors.password)}
            onChange={(e) => form.set('password', e.target.value)}
          />
        </FormField>
        <FormField id="sp-confirm" label={t('setPassword.confirm')} error={form.errors.password_confirmation}>
          <Input
            id="sp-confirm"
            kind="password"
            autoComplete="new-password"
            value={form.values.password_confirmation}
            aria-invalid={Boolean(form.errors.password_confirmation)}
            onChange={(e) => form.set('password_confirmation', e.target.value)}
          />
        </FormField>
        {form.formError ? <InlineAlert>{form.formError}</InlineAlert> : null}
        <Button type="submit" loading={form.submitting}>
          {t('setPassword.submit')}
        </Button>
      </form>
    </Card>
  );
}
