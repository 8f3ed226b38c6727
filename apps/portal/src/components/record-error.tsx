import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { isApiError } from '@fleet/api-client';
import { Button, InlineAlert, NotFound } from '@fleet/ui';

/**
 * What a details page shows when its record could not be read: a missing one (404: deleted, mistyped or
 * another company's) is a proper bilingual "record not found" with the way back to its list, not the
 * server's sentence naming the URL slug; other failures keep their message.
 */
export function RecordError({ error, listPath }: { error: Error; listPath: string }) {
  const { t } = useTranslation();
  if (isApiError(error) && error.status === 404) {
    return (
      <NotFound
        code="404"
        labels={{
          notFoundTitle: t('common:notFound.recordTitle'),
          notFoundMessage: t('common:notFound.recordDescription'),
        }}
        action={
          <Button asChild>
            <Link to={listPath} data-testid="record-not-found-back">
              {t('common:notFound.backToList')}
            </Link>
          </Button>
        }
      />
    );
  }
  return <InlineAlert>{error.message}</InlineAlert>;
}
