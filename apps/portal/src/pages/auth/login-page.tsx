import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { loginInputSchema } from '@fleet/api-client';
import { useSchemaForm } from '../../forms/use-form';
import { useServices } from '../../state/app-context';
import { afterSignInPath } from '../../state/session-store';
import { usePageReady } from '../../state/use-page-ready';
import { loginBody } from './login-body';
import { Button, Card, FormField, InlineAlert, Input } from '@fleet/ui';

export default function LoginPage() {
  const { t } = useTranslation('auth');
  const { session, queryClient } = useServices();
  const navigate = useNavigate();
  const location = useLocation();
  usePageReady(true);
  const form = useSchemaForm(loginInputSchema, { identifier: '', password: '' }, (f) =>
    f === 'password' ? t('login.password') : t('login.identifier'),
  );
  const from = (location.state as { from?: string } | null)?.from;

  const onSubmit = () =>
    form.submit(
      (v) => loginBody(v.identifier, v.password),
      async (body) => {
        queryClient.clear();
        const state = await session.signIn(body);
        const next = afterSignInPath(state);
        navigate(next === '/dashboard' && from?.startsWith('/dashboard') ? from : next, { replace: true });
      },
    );

  const idError = form.errors.email ?? form.errors.phone;
  return (
    <Card>
      <h1 className="text-2xl font-semibold text-foreground">{t('login.title')}</h1>
      <p className="mb-4 text-sm text-foreground-muted">{t('login.subtitle')}</p>
      <form
        noValidate
        className="flex flex-col gap-4"
        onSubmit={(event) => {
          event.preventDefault();
          void onSubmit();
        }}
      >
        <FormField id="login-identifier" label={t('login.identifier')} error={idError}>
          <Input
            id="login-identifier"
            name="identifier"
            autoComplete="username"
            dir="ltr"
            value={form.values.identifier}
            aria-invalid={Boolean(idError)}
            onChange={(e) => form.set('identifier', e.target.value)}
          />
        </FormField>
        <FormField id="login-password" label={t('login.password')} error={form.errors.password}>
          <Input
            id="login-password"
            name="password"
            kind="password"
            autoComplete="current-password"
            value={form.values.password}
            aria-invalid={Boolean(form.errors.password)}
            onChange={(e) => form.set('password', e.target.value)}
          />
        </FormField>
        {form.formError ? <InlineAlert>{form.formError}</InlineAlert> : null}
        <Button type="submit" loading={form.submitting}>
          {form.submitting ? t('login.submitting') : t('login.submit')}
        </Button>
        <Link
          to="/reset-password"
          className="text-center text-sm text-primary underline-offset-2 hover:underline"
        >
          {t('login.forgot')}
        </Link>
      </form>
    </Card>
  );
}
