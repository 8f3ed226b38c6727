import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';
import { Button, DescriptionList, DetailSection, NativeSelect } from '@fleet/ui';
import { useLanguageSelect } from '../../i18n/use-language-select';
import { useServices, useSession } from '../../state/app-context';
import { usePageReady } from '../../state/use-page-ready';

/** settings: profile, language, company, change password, logout. */
export default function SettingsPage() {
  const { t } = useTranslation('settings');
  const ft = useTranslation('fields').t;
  const { session, queryClient } = useServices();
  const { user, company, companies } = useSession();
  const navigate = useNavigate();
  usePageReady(true);
  const languageSelect = useLanguageSelect();
  return (
    <div className="flex flex-col gap-4" data-testid="settings">
      <h1 className="text-xl font-semibold text-foreground md:text-2xl">{t('page.title')}</h1>
      {user ? (
        <DetailSection title={t('page.profile')}>
          <DescriptionList
            columns={3}
            items={[
              { id: 'name', label: ft('label.name'), value: user.name },
              { id: 'email', label: ft('label.email'), value: <bdi dir="ltr">{user.email ?? '—'}</bdi> },
              { id: 'phone', label: ft('label.phone'), value: <bdi dir="ltr">{user.phone ?? '—'}</bdi> },
              { id: 'type', label: ft('label.user_type'), value: ft(`option.userType.${user.user_type}`) },
              { id: 'company', label: t('item.company'), value: company?.name ?? '—' },
            ]}
          />
        </DetailSection>
      ) : null}
      <DetailSection title={t('page.preferences')}>
        <div className="flex flex-wrap items-center gap-3">
          <span className="text-sm text-foreground">{t('item.language')}</span>
          <NativeSelect {...languageSelect} />
        </div>
        {companies.length > 1 ? (
          <Link className="mt-3 inline-block text-sm text-primary underline" to="/select-transport">
            {t('common:action.switchCompany')}
          </Link>
        ) : null}
      </DetailSection>
      <DetailSection title={t('alerts:page.title')} description={t('alerts:page.linkHint')}>
        <Button asChild variant="outline">
          <Link to="/dashboard/settings/alert-rules" data-testid="alert-rules-link">
            {t('alerts:page.link')}
          </Link>
        </Button>
      </DetailSection>
      <DetailSection title={t('page.security')}>
        <div className="flex flex-wrap gap-2">
          <Button asChild variant="outline">
            <Link to="/dashboard/settings/change-password" data-testid="change-password-link">
              {t('item.changePassword')}
            </Link>
          </Button>
          <Button
            variant="danger"
            onClick={() =>
              void session.logout().then(() => {
                queryClient.clear();
                navigate('/login', { replace: true });
              })
            }
          >
            {t('item.logout')}
          </Button>
        </div>
      </DetailSection>
    </div>
  );
}
