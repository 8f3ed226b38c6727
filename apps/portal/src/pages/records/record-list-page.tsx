import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { paths, type RecordGroup } from '../../app/paths';
import { PageHeader, type ColumnDef } from '@fleet/ui';
import { useSmallScreen } from '../../app/guards';
import { ListTable, type FilterDef } from '../../components/list-table';
import { listQueryFromParams, requestByName, type ListAnswer, type Row } from '../../entities/api';
import { FieldValue, optionGroup, useFieldLabel } from '../../entities/display';
import { recordConfigs } from '../../entities/records';
import { useStatusLabel } from '../../entities/use-status-label';
import { useServices, useSession } from '../../state/app-context';
import { usePageReady } from '../../state/use-page-ready';

/** List page of a read-only record group (trips, trips-app, device-trips, geofence and salik events). */
export default function RecordListPage({ group }: { group: RecordGroup }) {
  const config = recordConfigs[group];
  const { t } = useTranslation();
  const ft = useTranslation('fields').t;
  const label = useFieldLabel();
  const statusLabel = useStatusLabel();
  const { api } = useServices();
  const { company } = useSession();
  const navigate = useNavigate();
  const small = useSmallScreen();
  const [params, setParams] = useSearchParams();
  const query = listQueryFromParams(params, Object.keys(config.filters ?? {}));
  const list = useQuery({
    queryKey: ['list', config.group, company?.uuid, query],
    queryFn: ({ signal }) => requestByName<ListAnswer>(api, `${config.group}.list`, { query, signal }),
    placeholderData: keepPreviousData,
  });
  usePageReady(list.isSuccess && !list.isPlaceholderData);

  const filters: FilterDef[] = Object.entries(config.filters ?? {}).map(([name, options]) => ({
    name,
    label: name === 'status' ? t('common:status.label') : label(name),
    options: options.map((o) => {
      const og = optionGroup(name);
      return {
        value: o,
        label: name === 'status' ? statusLabel(o) : og ? ft(`option.${og}.${o}`, { defaultValue: o }) : o,
      };
    }),
  }));
  const columns: ColumnDef<Row, unknown>[] = config.columns.map((field, index) => ({
    id: field,
    header: label(field),
    enableSorting: false,
    meta: {
      numeric: ['distance_km', 'max_speed', 'average_speed', 'speed', 'fee', 'passengers_boarded'].includes(
        field,
      ),
      label: label(field),
    },
    cell: ({ row: { original: row } }) =>
      // Small screens: details fall back to the list, so the name is text (the card unfolds instead).
      index === 0 && config.details && !small ? (
        <Link className="font-medium text-primary hover:underline" to={paths.details(group, row.uuid)}>
          <FieldValue field={field} value={row[field]} />
        </Link>
      ) : (
        <FieldValue field={field} value={row[field]} />
      ),
  }));
  const answer = list.data;
  return (
    <div data-testid={`records-${group.replace(/\//g, '-')}`}>
      <PageHeader className="mb-4" title={t(`entities:${config.key}.title`)} />
      <ListTable<Row>
        caption={t(`entities:${config.key}.title`)}
        columns={columns}
        answer={answer}
        loading={list.isFetching}
        params={params}
        onParamsChange={setParams}
        filters={filters}
        {...(config.details && !small
          ? { onRowClick: (row: Row) => navigate(paths.details(group, row.uuid)) }
          : {})}
      />
    </div>
  );
}
