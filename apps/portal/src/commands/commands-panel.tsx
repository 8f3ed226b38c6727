import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { commandTypes, verifiedCommandTypes, type CommandType, type DeviceCommand } from '@fleet/api-client';
import {
  Button,
  DetailSection,
  Dialog,
  FormField,
  InlineAlert,
  Input,
  NativeSelect,
  PasswordVerificationDialog,
} from '@fleet/ui';
import { useRealtimeEvent } from '../live/realtime-context';
import { useServices, useSession } from '../state/app-context';

/** Attribute inputs per command type (the contract's attribute schemas validate them). */
const attributeFields: Partial<
  Record<CommandType, readonly { name: string; label: string; numeric?: boolean }[]>
> = {
  change_ip_port: [
    { name: 'host', label: 'panel.host' },
    { name: 'port', label: 'panel.port', numeric: true },
  ],
  custom: [{ name: 'text', label: 'panel.text' }],
  set_odometer: [{ name: 'value', label: 'panel.odometer', numeric: true }],
  fota_web: [{ name: 'url', label: 'panel.url' }],
};

/** Resolves the device of a vehicle by its IMEI (the vehicle record names the IMEI, not the device). */
function useDevice(
  deviceUuid: string | undefined,
  deviceImei: string | undefined,
  deviceType: string | undefined,
) {
  const { api } = useServices();
  const { company } = useSession();
  return useQuery({
    queryKey: ['device-by-imei', deviceImei, company?.uuid],
    enabled: !deviceUuid && Boolean(deviceImei),
    queryFn: async ({ signal }) => {
      const answer = await api.request('devices.list', { query: { search: deviceImei, limit: 5 }, signal });
      const device = answer.data.find((d) => d.imei === deviceImei) ?? null;
      return device ? { uuid: device.uuid, type: device.type as string } : null;
    },
    initialData: deviceUuid ? { uuid: deviceUuid, type: deviceType ?? '' } : undefined,
  });
}

/**
 * Remote commands (spec §7) from a vehicle or device page: choose a command the device type supports,
 * fill its attributes, verify the password for immobilize/un-immobilize, send; the device's answer
 * arrives over the real-time socket (command-response) and is shown here.
 */
/**
 * Commands that wipe, reset, reflash, re-home or disable: sent only after a dialog that names the
 * vehicle (or device) and says what will happen, in the user's language. Immobilize also asks for the
 * password afterwards (spec §7).
 */
export const confirmedCommandTypes = [
  'format_sd',
  'delete_records',
  'reset',
  'fota_web',
  'change_ip_port',
  'immobilize',
] as const satisfies readonly CommandType[];
const needsConfirmation = (type: CommandType): type is (typeof confirmedCommandTypes)[number] =>
  (confirmedCommandTypes as readonly string[]).includes(type);

export function CommandsPanel({
  deviceUuid,
  deviceImei,
  deviceType,
  target,
}: {
  deviceUuid?: string;
  deviceImei?: string;
  deviceType?: string;
  /** What the command acts on, as the user knows it (the plate, else the IMEI), for the confirmation. */
  target?: string;
}) {
  const { t } = useTranslation('commands');
  const { api } = useServices();
  const queryClient = useQueryClient();
  const device = useDevice(deviceUuid, deviceImei, deviceType);
  const supported = useQuery({
    queryKey: ['supported-commands'],
    queryFn: () => api.supportedCommands(),
    staleTime: Infinity,
  });
  const [type, setType] = useState<CommandType | ''>('');
  const [attrs, setAttrs] = useState<Record<string, string>>({});
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [last, setLast] = useState<DeviceCommand | null>(null);
  const [verifyOpen, setVerifyOpen] = useState(false);
  const [verifyError, setVerifyError] = useState<string | null>(null);
  const [confirmOpen, setConfirmOpen] = useState(false);

  const uuid = device.data?.uuid;
  useRealtimeEvent('command-response', uuid, (_data, message) => {
    if (message.event !== 'command-response' && message.event !== 'device-command-response') return;
    const answer = message.data;
    setLast((current) => (!current || current.uuid === answer.uuid ? answer : current));
    void queryClient.invalidateQueries({ queryKey: ['commands', uuid] });
  });

  if (!device.data) return null;
  const types = (supported.data?.[device.data.type as keyof typeof supported.data] ??
    commandTypes) as readonly CommandType[];

  const send = async (verificationToken?: string) => {
    if (!type || !uuid) return;
    setSending(true);
    setError(null);
    try {
      const attributes: Record<string, unknown> = {};
      for (const f of attributeFields[type] ?? []) {
        const raw = attrs[f.name]?.trim() ?? '';
        if (raw !== '') attributes[f.name] = f.numeric && Number.isFinite(Number(raw)) ? Number(raw) : raw;
      }
      const answer = await api.request('devices.commandSend', {
        params: { uuid },
        body: { type, attributes, ...(verificationToken ? { verification_token: verificationToken } : {}) },
      });
      setLast(answer.data);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setSending(false);
    }
  };

  return (
    <DetailSection title={t('panel.title')}>
      <form
        noValidate
        data-testid="commands-panel"
        className="flex flex-col gap-3"
        onSubmit={(e) => {
          e.preventDefault();
          if (!type) return;
          if (needsConfirmation(type)) setConfirmOpen(true);
          else if (verifiedCommandTypes.includes(type)) setVerifyOpen(true);
          else void send();
        }}
      >
        <div className="grid grid-cols-1 gap-3 sm:grid-cols-3">
          <FormField id="command-type" label={t('panel.title')}>
            <NativeSelect
              id="command-type"
              value={type}
              onChange={(e) => {
                setType(e.target.value as CommandType);
                setAttrs({});
              }}
            >
              <option value="">—</option>
              {types.map((c) => (
                <option key={c} value={c}>
                  {t(`name.${c}`)}
                </option>
              ))}
            </NativeSelect>
          </FormField>
          {(type ? (attributeFields[type] ?? []) : []).map((f) => (
            <FormField key={f.name} id={`command-${f.name}`} label={t(f.label)}>
              <Input
                id={`command-${f.name}`}
                dir="ltr"
                value={attrs[f.name] ?? ''}
                onChange={(e) => setAttrs((a) => ({ ...a, [f.name]: e.target.value }))}
              />
            </FormField>
          ))}
        </div>
        <div>
          <Button type="submit" disabled={!type} loading={sending} data-testid="command-send">
            {sending ? t('panel.sending') : t('panel.send')}
          </Button>
        </div>
        {error ? <InlineAlert>{error}</InlineAlert> : null}
        {last ? (
          <div
            data-testid="command-result"
            data-status={last.status}
            className="rounded-md border border-border bg-surface-sunken p-3 text-sm"
          >
            <p className="font-medium text-foreground">
              {t(`name.${last.type}`)} —{' '}
              <span data-testid="command-status">{t(`status.${last.status}`)}</span>
            </p>
            {last.status === 'queued' || last.status === 'sent' ? (
              <p className="text-foreground-muted">{t('panel.sent')}</p>
            ) : null}
            <p className="mt-1 text-foreground">
              {t('panel.response')}:{' '}
              <bdi dir="ltr" data-testid="command-response" className="font-mono">
                {last.response ?? last.error ?? t('panel.noResponse')}
              </bdi>
            </p>
          </div>
        ) : null}
      </form>
      {type && needsConfirmation(type) ? (
        <Dialog
          open={confirmOpen}
          onOpenChange={setConfirmOpen}
          size="sm"
          title={t('confirm.title', {
            command: t(`name.${type}`),
            target: `\u2068${target ?? deviceImei ?? device.data.uuid}\u2069`,
          })}
          description={t(`confirm.${type}`)}
          footer={
            <>
              <Button type="button" variant="outline" onClick={() => setConfirmOpen(false)}>
                {t('common:action.cancel')}
              </Button>
              <Button
                type="button"
                variant="danger"
                data-testid="command-confirm"
                onClick={() => {
                  setConfirmOpen(false);
                  if (verifiedCommandTypes.includes(type)) setVerifyOpen(true);
                  else void send();
                }}
              >
                {t('confirm.action', { command: t(`name.${type}`) })}
              </Button>
            </>
          }
        />
      ) : null}
      <PasswordVerificationDialog
        open={verifyOpen}
        {...(verifyError ? { error: verifyError } : {})}
        verifying={sending}
        onOpenChange={(open) => {
          setVerifyOpen(open);
          if (!open) setVerifyError(null);
        }}
        onVerify={(password) => {
          setVerifyError(null);
          api
            .request('auth.verifyPassword', { body: { password } })
            .then((answer) => {
              setVerifyOpen(false);
              return send(answer.data.verification_token);
            })
            .catch(() => setVerifyError(t('verify.failed')));
        }}
      />
    </DetailSection>
  );
}
