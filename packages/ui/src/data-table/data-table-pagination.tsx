/**
 * The pager under a paged table: page size, "from–to of total", first/previous, a window of page
 * numbers, next/last. Labels come from the table's messages; the numbers from {@link PageInfo}.
 */
import { useId } from 'react';
import { buttonRecipe, focusRing } from '../button/button';
import { format } from '../i18n/locale';
import { ChevronEndIcon, ChevronStartIcon } from '../icons';
import { cn } from '../lib/cn';
import { pageWindow, type PageInfo } from './data-table-logic';
import type { DataTableMessages } from './messages.en';

export function Pager({
  info,
  messages,
  pageSize,
  pageSizeOptions,
  disabled,
  onPage,
  onPageSize,
}: {
  info: PageInfo;
  messages: DataTableMessages;
  pageSize: number;
  pageSizeOptions: readonly number[];
  disabled: boolean;
  onPage: (page: number) => void;
  onPageSize: ((size: number) => void) | undefined;
}) {
  const sizeId = useId();
  const options = pageSizeOptions.includes(pageSize)
    ? pageSizeOptions
    : [...pageSizeOptions, pageSize].sort((a, b) => a - b);
  const nav = cn(buttonRecipe({ variant: 'ghost', size: 'sm' }), 'size-8 px-0');
  return (
    <div
      data-slot="data-table-pagination"
      className="flex flex-wrap items-center justify-between gap-3 text-foreground-muted"
    >
      <div className="flex items-center gap-2">
        {onPageSize ? (
          <>
            <label htmlFor={sizeId}>{messages.rowsPerPage}</label>
            <select
              id={sizeId}
              value={pageSize}
              disabled={disabled}
              onChange={(e) => onPageSize(Number(e.target.value))}
              className={cn(
                'h-8 rounded-md border border-border-strong bg-surface px-2 text-foreground',
                focusRing,
              )}
            >
              {options.map((n) => (
                <option key={n} value={n}>
                  {n}
                </option>
              ))}
            </select>
          </>
        ) : null}
        <span data-slot="data-table-range" className="tabular-nums">
          {format(messages.pageRange, { from: info.from, to: info.to, total: info.total })}
        </span>
      </div>
      <nav aria-label={messages.pagination} className="flex items-center gap-1">
        <button
          type="button"
          className={nav}
          aria-label={messages.firstPage}
          disabled={disabled || !info.hasPrevious}
          onClick={() => onPage(1)}
        >
          <ChevronStartIcon />
          <ChevronStartIcon className="-ms-3" />
        </button>
        <button
          type="button"
          className={nav}
          aria-label={messages.previousPage}
          disabled={disabled || !info.hasPrevious}
          onClick={() => onPage(info.page - 1)}
        >
          <ChevronStartIcon />
        </button>
        {pageWindow(info.page, info.pageCount).map((item) =>
          typeof item === 'number' ? (
            <button
              key={item}
              type="button"
              data-slot="data-table-page"
              aria-label={format(messages.page, { page: item })}
              aria-current={item === info.page ? 'page' : undefined}
              disabled={disabled}
              onClick={() => onPage(item)}
              className={cn(
                buttonRecipe({ variant: item === info.page ? 'secondary' : 'ghost', size: 'sm' }),
                'min-w-8 px-2 tabular-nums',
              )}
            >
              {item}
            </button>
          ) : (
            <span key={item} aria-hidden="true" className="px-1">
              …
            </span>
          ),
        )}
        <button
          type="button"
          className={nav}
          aria-label={messages.nextPage}
          disabled={disabled || !info.hasNext}
          onClick={() => onPage(info.page + 1)}
        >
          <ChevronEndIcon />
        </button>
        <button
          type="button"
          className={nav}
          aria-label={messages.lastPage}
          disabled={disabled || !info.hasNext}
          onClick={() => onPage(info.pageCount)}
        >
          <ChevronEndIcon />
          <ChevronEndIcon className="-ms-3" />
        </button>
      </nav>
    </div>
  );
}
