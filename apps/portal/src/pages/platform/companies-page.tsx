import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { companyCreateInputSchema, knownFeatures, type CompanyCreated } from '@fleet/api-client';
import { Button, Card, Checkbox, FormField, InlineAlert, Input, NativeSelect, PageHeader } from '@fleet/ui';
import { useSchemaForm } from '../../forms/use-form';
import { useServices, useSession } from '../../state/app-context';
import { usePageReady } from '../../state/use-page-ready';

const INITIAL = {
  name: '',
  name_ar: '',
  country_code: 'AE',
  admin_email: '',
  admin_name: '',
  admin_locale: 'en' as 'en' | 'ar',
  features: {} as Record<string, boolean>,
};

/**
 * platform/companies (super admins only, issue 18 finding 10): every transport company of the platform
 * and a form that onboards a new one with its first company admin. The server creates both in one
 * transaction and mails the admin a set-password invitation (it also appears in Sent messages, the
 * local mailbox, when no SMTP server is configured). Others see a refusal, as the API answers them.
 */
export default function CompaniesPage() {
  const { t } = useTranslation('platform');
  const { api, toasts } = useServices();
  const { user } = useSession();
  const superAdmin = user?.user_type === 'super_admin';
  const client = useQueryClient();
  const [created, setCreated] = useState<CompanyCreated | null>(null);
  const list = useQuery({
    queryKey: ['list', 'platform-companies'],
    queryFn: ({ signal }) => api.request('companies.list', { signal }),
    enabled: superAdmin,
  });
  usePageReady(!superAdmin || list.isSuccess || list.isError);
  const labels: Record<string, string> = {
    name: t('form.name'),
    name_ar: t('form.nameAr'),
    country_code: t('form.country'),
    admin: t('form.admin'),
  };
  const form = useSchemaForm(companyCreateInputSchema, INITIAL, (f) => labels[f]);
  if (!superAdmin) {
    return (
      <div data-testid="platform-companies">
        <PageHeader className="mb-4" title={t('title')} />
        <InlineAlert>{t('forbidden')}</InlineAlert>
      </div>
    );
  }
  const v = form.values;
  return (
    <div data-testid="platform-companies" className="flex flex-col gap-4">
      <PageHeader title={t('title')} />
      <p className="text-sm text-foreground-muted">{t('intro')}</p>
      <Card>
        <h2 className="mb-2 font-semibold">{t('list.title')}</h2>
        {list.isError ? <InlineAlert>{(list.error as Error).message}</InlineAlert> : null}
        <ul className="flex flex-col gap-2" aria-label={t('list.title')}>
          {(list.data?.data ?? []).map((c) => (
            <li
              key={c.uuid}
              data-testid="company-item"
              className="flex flex-wrap items-center gap-x-3 gap-y-1 rounded-lg border border-border p-3"
            >
              <span className="font-medium text-foreground">{c.name}</span>
              {c.name_ar ? (
                <bdi dir="rtl" className="text-foreground-muted">
                  {c.name_ar}
                </bdi>
              ) : null}
              <span className="text-xs text-foreground-muted">{c.country_code}</span>
              <span className="text-xs text-foreground-muted">{t('list.users', { count: c.user_count })}</span>
              <span className="text-xs text-foreground-muted">{t(`status.${c.status}`, { defaultValue: c.status })}</span>
            </li>
          ))}
        </ul>
      </Card>
      <Card className="max-w-2xl">
        <h2 className="mb-2 font-semibold">{t('form.title')}</h2>
        {created ? (
          <p role="status" className="mb-3 text-success" data-testid="company-created">
            {t('form.created', { name: created.company.name, email: created.admin.email })}
          </p>
        ) : null}
        <form
          noValidate
          className="flex flex-col gap-4"
          onSubmit={(e) => {
            e.preventDefault();
            void form.submit(
              (x) => ({
                name: x.name,
                name_ar: x.name_ar || undefined,
                country_code: x.country_code,
                settings: {},
                features: Object.fromEntries(Object.entries(x.features).filter(([, on]) => on)),
                admin: { email: x.admin_email, name: x.admin_name, locale: x.admin_locale },
              }),
              async (body) => {
                const r = await api.request('companies.create', { body });
                setCreated(r.data);
                toasts.show({ kind: 'success', message: t('form.createdShort') });
                form.setValues(INITIAL);
                await client.invalidateQueries({ queryKey: ['list', 'platform-companies'] });
              },
            );
          }}
        >
          <FormField id="co-name" label={t('form.name')} error={form.errors.name}>
            <Input
              id="co-name"
              value={v.name}
              aria-invalid={Boolean(form.errors.name)}
              onChange={(e) => form.set('name', e.target.value)}
            />
          </FormField>
          <FormField id="co-name-ar" label={t('form.nameAr')} error={form.errors.name_ar}>
            <Input id="co-name-ar" dir="rtl" value={v.name_ar} onChange={(e) => form.set('name_ar', e.target.value)} />
          </FormField>
          <FormField id="co-country" label={t('form.country')} error={form.errors.country_code}>
            <Input
              id="co-country"
              dir="ltr"
              maxLength={2}
              value={v.country_code}
              aria-invalid={Boolean(form.errors.country_code)}
              onChange={(e) => form.set('country_code', e.target.value.toUpperCase())}
            />
          </FormField>
          <fieldset className="flex flex-col gap-2">
            <legend className="mb-1 text-sm font-medium">{t('form.features')}</legend>
            {knownFeatures.map((f) => (
              <Checkbox
                key={f}
                id={`co-f-${f}`}
                label={t(`features.${f}`, { defaultValue: f })}
                checked={Boolean(v.features[f])}
                onCheckedChange={(on) => form.set('features', { ...v.features, [f]: on === true })}
              />
            ))}
          </fieldset>
          <fieldset className="flex flex-col gap-3 rounded-lg border border-border p-3">
            <legend className="px-1 text-sm font-medium">{t('form.admin')}</legend>
            {form.errors.admin ? <InlineAlert>{form.errors.admin}</InlineAlert> : null}
            <FormField id="co-admin-email" label={t('form.adminEmail')}>
              <Input
                id="co-admin-email"
                kind="email"
                dir="ltr"
                autoComplete="off"
                value={v.admin_email}
                onChange={(e) => form.set('admin_email', e.target.value)}
              />
            </FormField>
            <FormField id="co-admin-name" label={t('form.adminName')}>
              <Input id="co-admin-name" value={v.admin_name} onChange={(e) => form.set('admin_name', e.target.value)} />
            </FormField>
            <FormField id="co-admin-locale" label={t('form.adminLocale')}>
              <NativeSelect
                id="co-admin-locale"
                value={v.admin_locale}
                onChange={(e) => form.set('admin_locale', e.target.value as 'en' | 'ar')}
                options={[
                  { value: 'en', label: 'English' },
                  { value: 'ar', label: 'العربية' },
                ]}
              />
            </FormField>
            <p className="text-xs text-foreground-muted">{t('form.invitation')}</p>
          </fieldset>
          {form.formError ? <InlineAlert>{form.formError}</InlineAlert> : null}
          <Button type="submit" loading={form.submitting} data-testid="company-create-submit">
            {t('form.submit')}
          </Button>
        </form>
      </Card>
    </div>
  );
}
