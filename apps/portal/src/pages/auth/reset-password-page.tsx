import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router-dom';
import { forgotPasswordInputSchema, resetPasswordInputSchema } from '@fleet/api-client';
import { Button, Card, FormField, InlineAlert, Input, OtpDialog } from '@fleet/ui';
import { useSchemaForm } from '../../forms/use-form';
import { useServices } from '../../state/app-context';
import { usePageReady } from '../../state/use-page-ready';
import { loginBody } from './login-body';

/**
 * Forgot + reset password. An e-mail gets a reset link (back here with ?token=); a phone gets an OTP,
 * verified in the OTP dialog, whose answer is the reset token. Then the new password is set.
 */
export default function ResetPasswordPage() {
  const { t } = useTranslation('auth');
  const { api } = useServices();
  const [params] = useSearchParams();
  const [token, setToken] = useState<string | null>(params.get('token'));
  const [sentTo, setSentTo] = useState<{ email?: string; phone?: string } | null>(null);
  const [otpOpen, setOtpOpen] = useState(false);
  const [otpError, setOtpError] = useState<string | null>(null);
  const [otpBusy, setOtpBusy] = useState(false);
  const [done, setDone] = useState(false);
  usePageReady(true);

  const request = useSchemaForm(forgotPasswordInputSchema, { identifier: '' }, () =>
    t('resetPassword.email'),
  );
  const reset = useSchemaForm(resetPasswordInputSchema, { password: '', password_confirmation: '' }, (f) =>
    f === 'password' ? t('resetPassword.password') : t('resetPassword.confirm'),
  );

  const sendCode = async (target: { email?: string; phone?: string }) => {
    await api.request('auth.forgotPassword', { body: target });
    setSentTo(target);
    if (target.phone) setOtpOpen(true);
  };

  if (done) {
    return (
      <Card>
        <p role="status" className="mb-4 text-foreground">
          {t('resetPassword.success')}
        </p>
        <Link className="text-primary underline" to="/login">
          {t('resetPassword.backToLogin')}
        </Link>
      </Card>
    );
  }

  return (
    <Card>
      <h1 className="text-2xl font-semibold text-foreground">{t('resetPassword.title')}</h1>
      {!token ? (
        <>
          <p className="mb-4 text-sm text-foreground-muted">{t('resetPassword.subtitle')}</p>
          <form
            noValidate
            className="flex flex-col gap-4"
            onSubmit={(e) => {
              e.preventDefault();
              void request.submit(
                (v) => {
                  const { password: _p, ...identity } = loginBody(v.identifier, '');
                  return identity;
                },
                (body) => sendCode(body as { email?: string; phone?: string }),
              );
            }}
          >
            <FormField
              id="rp-identifier"
              label={t('resetPassword.email')}
              error={request.errors.email ?? request.errors.phone}
            >
              <Input
                id="rp-identifier"
                dir="ltr"
                autoComplete="username"
                value={request.values.identifier}
                aria-invalid={Boolean(request.errors.email ?? request.errors.phone)}
                onChange={(e) => request.set('identifier', e.target.value)}
              />
            </FormField>
            {sentTo ? (
              <p role="status" className="text-sm text-success">
                {t('resetPassword.sent', { email: sentTo.email ?? sentTo.phone })}
              </p>
            ) : null}
            {request.formError ? <InlineAlert>{request.formError}</InlineAlert> : null}
            <Button type="submit" loading={request.submitting}>
              {t('resetPassword.send')}
            </Button>
          </form>
        </>
      ) : (
        <form
          noValidate
          className="mt-4 flex flex-col gap-4"
          onSubmit={(e) => {
            e.preventDefault();
            void reset.submit(
              (v) => ({ ...v, token }),
              async (body) => {
                await api.request('auth.resetPassword', { body });
                setDone(true);
              },
            );
          }}
        >
          <FormField id="rp-password" label={t('resetPassword.password')} error={reset.errors.password}>
            <Input
              id="rp-password"
              kind="password"
              autoComplete="new-password"
              value={reset.values.password}
              aria-invalid={Boolean(reset.errors.password)}
              onChange={(e) => reset.set('password', e.target.value)}
            />
          </FormField>
          <FormField
            id="rp-confirm"
            label={t('resetPassword.confirm')}
            error={reset.errors.password_confirmation}
          >
            <Input
              id="rp-confirm"
              kind="password"
              autoComplete="new-password"
              value={reset.values.password_confirmation}
              aria-invalid={Boolean(reset.errors.password_confirmation)}
              onChange={(e) => reset.set('password_confirmation', e.target.value)}
            />
          </FormField>
          {reset.formError || reset.errors.token ? (
            <InlineAlert>{reset.formError ?? reset.errors.token ?? ''}</InlineAlert>
          ) : null}
          <Button type="submit" loading={reset.submitting}>
            {t('resetPassword.submit')}
          </Button>
        </form>
      )}
      <p className="mt-4 text-center text-sm">
        <Link className="text-primary underline-offset-2 hover:underline" to="/login">
          {t('resetPassword.backToLogin')}
        </Link>
      </p>
      {/* Mounted per opening so the digits and the resend countdown start fresh each time. */}
      {otpOpen ? (
        <OtpDialog
          open
          destination={sentTo?.phone ?? ''}
          resendAfterSeconds={30}
          {...(otpError ? { error: otpError } : {})}
          verifying={otpBusy}
          onOpenChange={(open) => {
            if (!open) setOtpOpen(false);
          }}
          onResend={() => sentTo && void sendCode(sentTo)}
          onVerify={(code) => {
            setOtpBusy(true);
            setOtpError(null);
            api
              .request('auth.otpVerify', { body: { purpose: 'reset_password', code, ...(sentTo ?? {}) } })
              .then((answer) => {
                setToken(answer.data.token);
                setOtpOpen(false);
              })
              .catch((error: unknown) => setOtpError(error instanceof Error ? error.message : String(error)))
              .finally(() => setOtpBusy(false));
          }}
        />
      ) : null}
    </Card>
  );
}
