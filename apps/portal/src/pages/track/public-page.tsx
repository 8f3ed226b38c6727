import type { ReactNode } from 'react';

/** The header of the public guardian pages (tracking, unsubscribe): product name and language picker. */
export function PublicPageHeader({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <header className="flex items-center justify-between gap-2 p-4">
      <div className="flex items-center gap-2">
        <img src="/icons/icon.svg" alt="" className="size-8" />
        <span className="text-lg font-semibold">{title}</span>
      </div>
      {children}
    </header>
  );
}

/**
 * The one answer of a public link that does not work, whatever the reason (forged, expired, revoked,
 * trip ended): it names nothing, so it tells nobody which links exist.
 */
export function PublicLinkInvalid({ title, text, testId }: { title: string; text: string; testId: string }) {
  return (
    <div className="mx-auto mt-16 max-w-md text-center" data-testid={testId}>
      <p className="text-5xl font-bold text-primary">404</p>
      <h1 className="mt-3 text-xl font-semibold">{title}</h1>
      <p className="mt-2 text-foreground-muted">{text}</p>
    </div>
  );
}
