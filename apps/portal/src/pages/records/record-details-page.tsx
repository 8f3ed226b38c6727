import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router-dom';
import { paths, type RecordGroup } from '../../app/paths';
import { DescriptionList, DetailLayout, DetailSection, LoadingState } from '@fleet/ui';
import { requestByName, type Row } from '../../entities/api';
import { FieldValue, useDetailStatus, useFieldLabel } from '../../entities/display';
import { recordConfigs } from '../../entities/records';
import { recordTitle } from '../../entities/registry';
import { useServices, useSession } from '../../state/app-context';
import { usePageReady } from '../../state/use-page-ready';
import { RecordError } from '../../components/record-error';

/** details/{uuid} of a read-only record. */
export default function RecordDetailsPage({ group }: { group: RecordGroup }) {
  const { uuid = '' } = useParams();
  const config = recordConfigs[group];
  const { api } = useServices();
  const { company } = useSession();
  const { t } = useTranslation();
  const label = useFieldLabel();
  const detailStatus = useDetailStatus();
  const record = useQuery({
    queryKey: ['record', config.group, uuid, company?.uuid],
    queryFn: ({ signal }) =>
      requestByName<{ data: Row }>(api, `${config.group}.show`, { params: { uuid }, signal }),
  });
  usePageReady(record.isSuccess);
  if (record.isPending) return <LoadingState label={t('common:state.loading')} />;
  if (record.isError) return <RecordError error={record.error} listPath={paths.list(group)} />;
  const item = record.data.data;
  const title =
    typeof item.geofence_name === 'string'
      ? item.geofence_name
      : typeof item.gate_name === 'string'
        ? item.gate_name
        : typeof item.reference === 'string'
          ? item.reference
          : recordTitle(item);
  return (
    <DetailLayout
      title={<span data-testid="details-title">{title}</span>}
      status={detailStatus(item.status)}
      actions={
        <Link className="text-sm text-primary underline" to={paths.list(group)}>
          {t(`entities:${config.key}.title`)}
        </Link>
      }
    >
      <DetailSection title={t(`entities:${config.key}.details`)}>
        <DescriptionList
          columns={3}
          items={Object.keys(item)
            .filter((f) => f !== 'uuid' && f !== 'status')
            .map((f) => ({ id: f, label: label(f), value: <FieldValue field={f} value={item[f]} /> }))}
        />
      </DetailSection>
    </DetailLayout>
  );
}
