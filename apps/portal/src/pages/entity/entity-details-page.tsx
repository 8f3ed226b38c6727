import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router-dom';
import {
  Button,
  DeleteConfirmDialog,
  DescriptionList,
  DetailLayout,
  DetailSection,
  EditIcon,
  LoadingState,
  StatusUpdateDialog,
  TrashIcon,
  vehicleStatusUpdates,
  type EntityStatusUpdate,
} from '@fleet/ui';
import { paths, type CrudEntity } from '../../app/paths';
import { requestByName, type Row } from '../../entities/api';
import { FieldValue, useDetailStatus, useFieldLabel } from '../../entities/display';
import { entityConfigs, entityKey, recordTitle } from '../../entities/registry';
import { useStatusLabel } from '../../entities/use-status-label';
import { useCoreText } from '../../i18n/core-text';
import { useServices, useSession } from '../../state/app-context';
import { usePageReady } from '../../state/use-page-ready';
import { CommandsPanel } from '../../commands/commands-panel';
import { SensorsPanel } from '../../devices/sensors-panel';
import { FramesPanel } from '../../devices/frames-panel';
import { ConnectHelp } from '../../devices/connect-help';
import { VehicleLiveCard } from '../../vehicles/vehicle-live-card';
import { VehicleOverviewTabs } from '../../vehicles/vehicle-overview-tabs';
import { GeofencePreview } from '../../geofences/geofence-preview';
import { ResendInvitationButton } from '../messages/resend-invitation-button';
import { RevokeTrackingButton } from '../track/revoke-tracking-button';
import { RecordError } from '../../components/record-error';

const HIDDEN = new Set(['uuid', 'created_at', 'updated_at']);

/** The record's status as one the kit's status dialog offers ('active' when it has another or none). */
function currentStatus(status: unknown): EntityStatusUpdate {
  return (vehicleStatusUpdates as readonly unknown[]).includes(status)
    ? (status as EntityStatusUpdate)
    : 'active';
}

/** details/{uuid}: description list, status update dialog, delete confirmation, and per-entity panels. */
export default function EntityDetailsPage({ entity }: { entity: CrudEntity }) {
  const { uuid = '' } = useParams();
  const config = entityConfigs[entity];
  const { api, toasts } = useServices();
  const { company } = useSession();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { t } = useTranslation();
  const core = useCoreText();
  const label = useFieldLabel();
  const detailStatus = useDetailStatus();
  const statusLabel = useStatusLabel();
  const key = entityKey(entity);
  const one = t(`entities:${key}.one`);
  const [dialog, setDialog] = useState<'delete' | 'status' | null>(null);

  const record = useQuery({
    queryKey: ['record', config.group, uuid, company?.uuid],
    queryFn: ({ signal }) =>
      requestByName<{ data: Row }>(api, `${config.group}.show`, { params: { uuid }, signal }),
  });
  usePageReady(record.isSuccess);

  const remove = useMutation({
    mutationFn: () => requestByName(api, `${config.group}.delete`, { params: { uuid } }),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ['list', config.group] });
      navigate(paths.list(entity), { replace: true });
    },
  });
  const status = useMutation({
    mutationFn: (next: string) =>
      requestByName<{ data: Row }>(api, `${config.group}.status`, {
        params: { uuid },
        body: { status: next },
      }),
    onSuccess: async (answer) => {
      queryClient.setQueryData(['record', config.group, uuid, company?.uuid], answer);
      await queryClient.invalidateQueries({ queryKey: ['list', config.group] });
      setDialog(null);
    },
  });

  if (record.isPending) return <LoadingState label={t('common:state.loading')} />;
  if (record.isError) return <RecordError error={record.error} listPath={paths.list(entity)} />;
  const item = record.data.data;
  // A geofence's zone is drawn on the map above; the list keeps its summary (shape and size) only.
  const fields = Object.keys(item).filter((f) => !HIDDEN.has(f) && f !== 'status');

  return (
    <DetailLayout
      title={<span data-testid="details-title">{recordTitle(item)}</span>}
      status={detailStatus(item.status)}
      actions={
        <>
          <Button asChild variant="outline">
            <Link to={paths.create(entity, uuid)}>
              <EditIcon className="size-4" aria-hidden="true" />
              {t('common:action.edit')}
            </Link>
          </Button>
          {entity === 'users' ? <ResendInvitationButton uuid={uuid} /> : null}
          {entity === 'guardians' ? <RevokeTrackingButton uuid={uuid} /> : null}
          <Button variant="outline" onClick={() => setDialog('status')} data-testid="status-button">
            {t('common:action.updateStatus')}
          </Button>
          <Button
            variant="danger"
            startIcon={<TrashIcon className="size-4" aria-hidden="true" />}
            onClick={() => setDialog('delete')}
            data-testid="delete-button"
          >
            {t('common:action.delete')}
          </Button>
        </>
      }
    >
      {entity === 'vehicles' ? <VehicleLiveCard vehicleUuid={uuid} /> : null}
      {entity === 'geofences' && item.geometry ? <GeofencePreview geofence={item} /> : null}
      <DetailSection title={t(`entities:${key}.details`)}>
        <DescriptionList
          columns={3}
          items={[
            ...fields.map((f) => ({
              id: f,
              label: label(f),
              value: <FieldValue field={f} value={item[f]} segment={entity} />,
            })),
            {
              id: 'created_at',
              label: label('created_at'),
              value: <FieldValue field="created_at" value={item.created_at} />,
            },
          ]}
        />
      </DetailSection>
      {entity === 'devices' && item.type !== 'osmand' && item.type !== 'mqtt' ? (
        <CommandsPanel
          deviceUuid={uuid}
          deviceType={String(item.type ?? '')}
          target={typeof item.imei === 'string' ? item.imei : undefined}
        />
      ) : null}
      {entity === 'devices' ? (
        <>
          <ConnectHelp type={String(item.type ?? '')} imei={String(item.imei ?? '')} />
          <SensorsPanel deviceUuid={uuid} />
          <FramesPanel deviceUuid={uuid} />
        </>
      ) : null}
      {/* Commands (history and send) live in the overview's Commands tab. */}
      {entity === 'vehicles' ? <VehicleOverviewTabs vehicle={item} /> : null}
      <DeleteConfirmDialog
        open={dialog === 'delete'}
        onOpenChange={(open) => setDialog(open ? 'delete' : null)}
        entity={one}
        name={recordTitle(item)}
        // A rejection keeps the dialog open with the kit's 'Error deleting {entity}'.
        onConfirm={async () => {
          await remove.mutateAsync();
        }}
        labels={{ deleteError: core('error.deleting', { entity: one }) }}
      />
      {/* Mounted per opening so the choice starts from the record's current status. */}
      {dialog === 'status' ? (
        <StatusUpdateDialog
          open
          onOpenChange={(open) => setDialog(open ? 'status' : null)}
          entityKind={entity === 'vehicles' ? 'vehicle' : 'other'}
          value={currentStatus(item.status)}
          // Spec: errors are shown as toasts. The dialog closes either way; the record keeps its
          // status on failure and the toast says why.
          onSubmit={async (next) => {
            try {
              await status.mutateAsync(next);
            } catch (error) {
              toasts.show({ kind: 'error', message: error instanceof Error ? error.message : String(error) });
            }
          }}
          labels={{
            statusActive: statusLabel('active'),
            statusInactive: statusLabel('inactive'),
            statusExpired: statusLabel('expired'),
            statusMaintenance: statusLabel('maintenance'),
          }}
        />
      ) : null}
    </DetailLayout>
  );
}
