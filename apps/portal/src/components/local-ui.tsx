/**
 * Transitional: only pages/live/live-list-page.tsx still imports PageHeader from here (that file is
 * being edited elsewhere). It is the kit's PageHeader with the space the other pages now give it
 * through `className="mb-4"`. Delete this file once that page imports PageHeader from @fleet/ui.
 */
import { PageHeader as KitPageHeader, cn, type PageHeaderProps } from '@fleet/ui';

export function PageHeader({ className, ...props }: PageHeaderProps) {
  return <KitPageHeader className={cn('mb-4', className)} {...props} />;
}
