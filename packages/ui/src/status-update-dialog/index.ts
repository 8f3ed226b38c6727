export {
  StatusUpdateDialog,
  entityStatuses,
  vehicleStatusUpdates,
  statusOptionsFor,
} from './status-update-dialog';
export type { StatusUpdateDialogProps, EntityStatusUpdate } from './status-update-dialog';
