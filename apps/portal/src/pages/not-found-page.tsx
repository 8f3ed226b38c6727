import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';

export default function NotFoundPage() {
  const { t } = useTranslation('common');
  return (
    <main className="mx-auto flex min-h-[60vh] max-w-lg flex-col items-center justify-center gap-4 p-6 text-center">
      <p className="text-6xl font-bold text-teal-700">404</p>
      <h1 className="text-2xl font-semibold">{t('notFound.title')}</h1>
      <p className="text-gray-600">{t('notFound.description')}</p>
      <Link className="rounded-md bg-teal-700 px-4 py-2 text-white" to="/dashboard">
        {t('notFound.home')}
      </Link>
    </main>
  );
}
