import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSmallScreen } from '../app/guards';

/**
 * A page action that exists only on larger screens. On small screens create and details routes
 * fall back to the list (spec §2), so an "Add" button there would lead nowhere: it is replaced by
 * a short note saying where to do it instead.
 */
export function LargeScreenAction({ children }: { children: ReactNode }) {
  const { t } = useTranslation('common');
  const small = useSmallScreen();
  if (!small) return <>{children}</>;
  return (
    <p data-testid="larger-screen-note" className="text-sm text-foreground-muted">
      {t('table.openOnLargerScreen')}
    </p>
  );
}
