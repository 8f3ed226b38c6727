import { useEffect, useRef } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router-dom';
import { storageKeys } from '@fleet/core';
import { Button, InlineAlert, LoadingState, NativeSelect } from '@fleet/ui';
import { changeLanguage } from '../../i18n/i18n';
import { useLanguageSelect } from '../../i18n/use-language-select';
import { useServices } from '../../state/app-context';
import { usePageReady } from '../../state/use-page-ready';
import { PublicLinkInvalid, PublicPageHeader } from './public-page';

/**
 * unsubscribe/{token}: the page of the unsubscribe link in every guardian message (issue 14). Opening it
 * changes nothing (mail scanners open links); the button stops the messages of the channel the link
 * came through. In the guardian's saved language unless this browser already chose one. A forged link
 * shows the plain "not available" page.
 */
export default function UnsubscribePage() {
  const { token = '' } = useParams();
  const { t, i18n } = useTranslation('messages');
  const { api, storage } = useServices();
  const queries = useQueryClient();
  const languageSelect = useLanguageSelect();
  const state = useQuery({
    queryKey: ['unsubscribe', token],
    queryFn: ({ signal }) => api.request('unsubscribe.show', { params: { token }, signal }),
    retry: false,
  });
  const confirm = useMutation({
    mutationFn: () => api.request('unsubscribe.confirm', { params: { token } }),
    onSuccess: (answer) => queries.setQueryData(['unsubscribe', token], answer),
  });
  usePageReady(state.isSuccess || state.isError);
  const data = state.data?.data;
  const languageApplied = useRef(false);
  useEffect(() => {
    if (!data || languageApplied.current) return;
    languageApplied.current = true;
    const wanted = data.language === 'ar' ? 'ar' : 'en-US';
    if (!storage.getItem(storageKeys.locale) && i18n.language !== wanted) void changeLanguage(i18n, wanted);
  }, [data, i18n, storage]);
  const channel = data ? t(`channel.${data.channel}`) : '';
  return (
    <div className="flex min-h-dvh flex-col bg-background text-foreground" data-testid="unsubscribe">
      <PublicPageHeader title={t('common:app.name')}>
        <NativeSelect {...languageSelect} />
      </PublicPageHeader>
      <main className="mx-auto flex w-full max-w-md flex-1 flex-col gap-4 p-4">
        {state.isPending ? <LoadingState label={t('common:state.loading')} /> : null}
        {state.isError ? (
          <PublicLinkInvalid
            title={t('unsubscribe.invalidTitle')}
            text={t('unsubscribe.invalid')}
            testId="unsubscribe-invalid"
          />
        ) : null}
        {data ? (
          <>
            <h1 className="mt-8 text-xl font-semibold">{t('unsubscribe.title')}</h1>
            {data.subscribed ? (
              <>
                <p>{t('unsubscribe.ask', { channel })}</p>
                <Button
                  onClick={() => confirm.mutate()}
                  disabled={confirm.isPending}
                  data-testid="unsubscribe-confirm"
                >
                  {t('unsubscribe.confirm')}
                </Button>
                {confirm.isError ? <InlineAlert tone="danger">{t('unsubscribe.failed')}</InlineAlert> : null}
              </>
            ) : (
              <p data-testid="unsubscribe-done" role="status">
                {confirm.isSuccess
                  ? t('unsubscribe.done', { channel })
                  : t('unsubscribe.already', { channel })}
              </p>
            )}
          </>
        ) : null}
      </main>
    </div>
  );
}
