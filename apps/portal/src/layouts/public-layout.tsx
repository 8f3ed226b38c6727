import { Outlet } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { NativeSelect } from '@fleet/ui';
import { useLanguageSelect } from '../i18n/use-language-select';

/** Public authentication layout at / (login, set/reset password, server-unreachable, menu, picker). */
export default function PublicLayout() {
  const { t } = useTranslation('common');
  const languageSelect = useLanguageSelect();
  return (
    <div className="flex min-h-dvh flex-col bg-background text-foreground">
      <header className="flex items-center justify-between p-4">
        <div className="flex items-center gap-2">
          <img src="/icons/icon.svg" alt="" className="size-8" />
          <span className="text-lg font-semibold">{t('app.name')}</span>
        </div>
        <NativeSelect {...languageSelect} />
      </header>
      <main className="flex flex-1 items-start justify-center p-4 md:items-center">
        <div className="w-full max-w-md">
          <Outlet />
        </div>
      </main>
    </div>
  );
}
