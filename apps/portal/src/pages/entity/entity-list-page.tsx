import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import type { CrudEntity } from '../../app/paths';
import { paths } from '../../app/paths';
import { Button, PageHeader, PlusIcon, type ColumnDef } from '@fleet/ui';
import { useSmallScreen } from '../../app/guards';
import { LargeScreenAction } from '../../components/larger-screen-note';
import { ListTable, type FilterDef } from '../../components/list-table';
import { listQueryFromParams, requestByName, type ListAnswer, type Row } from '../../entities/api';
import { FieldValue, optionGroup, useFieldLabel } from '../../entities/display';
import { entityConfigs, entityKey } from '../../entities/registry';
import { useServices, useSession } from '../../state/app-context';
import { usePageReady } from '../../state/use-page-ready';
import { useStatusLabel } from '../../entities/use-status-label';
import { useVehicleListExtras, vehicleExtraFilterNames } from '../../vehicles/vehicle-list-extras';

/**
 * Generic list page of a managed entity: search, more filters, server-side sorting on the columns the
 * contract sorts by, the API's pagination envelope. Vehicles add live-status and last-seen columns and
 * their reference, live-status and last-seen filters (vehicles/vehicle-list-extras.tsx).
 */
export default function EntityListPage({ entity }: { entity: CrudEntity }) {
  if (entity === 'vehicles') return <VehicleListPage />;
  return <EntityList entity={entity} />;
}

function VehicleListPage() {
  const extras = useVehicleListExtras();
  return <EntityList entity="vehicles" extras={extras} />;
}

function EntityList({
  entity,
  extras,
}: {
  entity: CrudEntity;
  extras?: { filters: FilterDef[]; columns: ColumnDef<Row, unknown>[] };
}) {
  const config = entityConfigs[entity];
  const { t } = useTranslation();
  const ft = useTranslation('fields').t;
  const label = useFieldLabel();
  const statusLabel = useStatusLabel();
  const { api } = useServices();
  const { company } = useSession();
  const navigate = useNavigate();
  const small = useSmallScreen();
  const [params, setParams] = useSearchParams();
  const sortable = new Set(config.sortable ?? []);
  const filterNames = [
    'status',
    ...Object.keys(config.filters ?? {}),
    ...(extras ? vehicleExtraFilterNames : []),
    ...(sortable.size > 0 ? ['sort', 'order'] : []),
  ];
  const query = listQueryFromParams(params, filterNames);
  const key = entityKey(entity);

  const list = useQuery({
    queryKey: ['list', config.group, company?.uuid, query],
    queryFn: ({ signal }) => requestByName<ListAnswer>(api, `${config.group}.list`, { query, signal }),
    placeholderData: keepPreviousData,
  });
  usePageReady(list.isSuccess && !list.isPlaceholderData);

  const filters: FilterDef[] = [
    {
      name: 'status',
      label: t('common:status.label'),
      options: config.statuses.map((s) => ({ value: s, label: statusLabel(s) })),
    },
    ...Object.entries(config.filters ?? {}).map(([name, options]) => ({
      name,
      label: label(name === 'shape' ? 'shape' : name),
      options: options.map((o) => {
        const group = optionGroup(name, entity);
        return { value: o, label: group ? ft(`option.${group}.${o}`, { defaultValue: o }) : o };
      }),
    })),
    ...(extras?.filters ?? []),
  ];

  const columns: ColumnDef<Row, unknown>[] = config.columns.map((field, index) => ({
    id: field,
    header: label(field),
    // TanStack sorts only columns with an accessor; the server does the sorting (manual mode).
    accessorFn: (row: Row) => row[field],
    enableSorting: sortable.has(field),
    meta: { numeric: ['year', 'seat_capacity', 'students_capacity'].includes(field), label: label(field) },
    cell: ({ row: { original: row } }) =>
      // Small screens: details fall back to the list, so the name is text (the card unfolds instead).
      index === 0 && !small ? (
        <Link className="font-medium text-primary hover:underline" to={paths.details(entity, row.uuid)}>
          <FieldValue field={field} value={row[field]} segment={entity} />
        </Link>
      ) : (
        <FieldValue field={field} value={row[field]} segment={entity} />
      ),
  }));
  if (extras) columns.splice(columns.length - 1, 0, ...extras.columns);

  const answer = list.data;
  return (
    <div data-testid={`list-${entity}`}>
      <PageHeader
        className="mb-4"
        title={t(`entities:${key}.title`)}
        actions={
          <LargeScreenAction>
            <Button asChild>
              <Link to={paths.create(entity)} data-testid="create-button">
                <PlusIcon className="size-4" aria-hidden="true" />
                {t(`entities:${key}.create`)}
              </Link>
            </Button>
          </LargeScreenAction>
        }
      />
      <ListTable<Row>
        caption={t(`entities:${key}.title`)}
        columns={columns}
        answer={answer}
        loading={list.isFetching}
        params={params}
        onParamsChange={setParams}
        filters={filters}
        sortable={sortable.size > 0}
        {...(small ? {} : { onRowClick: (row: Row) => navigate(paths.details(entity, row.uuid)) })}
      />
    </div>
  );
}
