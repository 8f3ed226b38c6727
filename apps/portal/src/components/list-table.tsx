import { useTranslation } from 'react-i18next';
import {
  Button,
  DataTable,
  FormField,
  NativeSelect,
  type ColumnDef,
  type ListMeta,
  type SortingState,
} from '@fleet/ui';

export interface FilterDef {
  name: string;
  label: string;
  options: readonly { value: string; label: string }[];
}

/** Page sizes the API accepts (entities/api listQueryFromParams). */
const pageSizes = [10, 15, 25, 50, 100] as const;
const emptyMeta: ListMeta = { total: 0, current_page: 1, last_page: 1, per_page: 15 };

/**
 * A server-paged list (spec §2: search, more filters, the API's pagination envelope) drawn by the
 * kit's DataTable. What this adds is only the wiring: page, page size, search and every filter live
 * in the URL search params, so a list can be shared and survives reloads, and any change but the page
 * goes back to page 1. The "more filters" panel content is the filters' selects.
 */
export function ListTable<T extends { uuid: string }>({
  caption,
  columns,
  answer,
  loading,
  params,
  onParamsChange,
  filters,
  onRowClick,
  sortable = false,
}: {
  caption: string;
  columns: ColumnDef<T, unknown>[];
  answer: (ListMeta & { data: T[] }) | undefined;
  loading: boolean;
  params: URLSearchParams;
  onParamsChange: (next: URLSearchParams) => void;
  filters: readonly FilterDef[];
  onRowClick?: (row: T) => void;
  /**
   * Server-side sorting through `sort` / `order` in the URL (the contract's sortable columns; each
   * column still opts in with `enableSorting`). Changing the sort goes back to page 1.
   */
  sortable?: boolean;
}) {
  const { t } = useTranslation('common');
  const update = (patch: Record<string, string>, keepPage = false) => {
    const next = new URLSearchParams(params);
    for (const [k, v] of Object.entries(patch)) {
      if (v) next.set(k, v);
      else next.delete(k);
    }
    if (!keepPage) next.delete('page');
    onParamsChange(next);
  };
  const active = filters.filter((f) => params.get(f.name)).length;
  const sortBy = params.get('sort');
  const sorting: SortingState = sortBy ? [{ id: sortBy, desc: params.get('order') !== 'asc' }] : [];
  return (
    <DataTable<T>
      caption={caption}
      columns={columns}
      data={answer?.data ?? []}
      getRowId={(row) => row.uuid}
      pagination={answer ?? emptyMeta}
      onPageChange={(page) => update({ page: String(page) }, true)}
      onPerPageChange={(perPage) => update({ limit: String(perPage) })}
      pageSizeOptions={pageSizes}
      search={params.get('search') ?? ''}
      onSearchChange={(text) => update({ search: text.trim() })}
      loading={loading}
      {...(sortable
        ? {
            sorting,
            onSortingChange: (next: SortingState) => {
              const first = next[0];
              update({ sort: first?.id ?? '', order: first ? (first.desc ? 'desc' : 'asc') : '' });
            },
          }
        : {})}
      {...(onRowClick ? { onRowClick } : {})}
      activeFilterCount={active}
      filters={
        filters.length > 0 ? (
          <div className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-4">
            {filters.map((f) => (
              <FormField key={f.name} id={`filter-${f.name}`} label={f.label}>
                <NativeSelect
                  id={`filter-${f.name}`}
                  value={params.get(f.name) ?? ''}
                  onChange={(e) => update({ [f.name]: e.target.value })}
                >
                  <option value="">—</option>
                  {f.options.map((o) => (
                    <option key={o.value} value={o.value}>
                      {o.label}
                    </option>
                  ))}
                </NativeSelect>
              </FormField>
            ))}
            <div className="flex items-end">
              <Button
                variant="ghost"
                onClick={() =>
                  update(Object.fromEntries([...filters.map((f) => [f.name, '']), ['search', '']]))
                }
              >
                {t('action.clearFilters')}
              </Button>
            </div>
          </div>
        ) : undefined
      }
    />
  );
}
