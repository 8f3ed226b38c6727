import { useMemo, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router-dom';
import { Button, Card, InlineAlert, LoadingState, PageHeader, TwoStepWizard } from '@fleet/ui';
import { translate } from '@fleet/core';
import { isApiError } from '@fleet/api-client';
import { paths, type CrudEntity } from '../../app/paths';
import { requestByName, type Row } from '../../entities/api';
import { useFieldLabel } from '../../entities/display';
import { entityConfigs, entityKey } from '../../entities/registry';
import { FieldInput } from '../../forms/field-input';
import { describeSchema, type FieldDef } from '../../forms/introspect';
import { issuesToErrors, serverFieldErrors, type FieldErrors } from '../../forms/validation';
import { initialValues, toInput, type FormValues } from '../../forms/values';
import { GeometryEditor } from '../../geofences/geometry-editor';
import type { ApiGeometry } from '../../geofences/geometry';
import { useServices, useSession } from '../../state/app-context';
import { usePageReady } from '../../state/use-page-ready';

/** create/{uuid?}: a new record, or the edit form when the uuid is there. */
export default function EntityFormPage({ entity }: { entity: CrudEntity }) {
  const { uuid } = useParams();
  const config = entityConfigs[entity];
  const { api } = useServices();
  const { company } = useSession();
  const { t } = useTranslation();
  const existing = useQuery({
    queryKey: ['record', config.group, uuid, company?.uuid],
    queryFn: ({ signal }) =>
      requestByName<{ data: Row }>(api, `${config.group}.show`, { params: { uuid: uuid ?? '' }, signal }),
    enabled: Boolean(uuid),
  });
  usePageReady(!uuid || existing.isSuccess);
  const key = entityKey(entity);
  if (uuid && existing.isPending) return <LoadingState label={t('common:state.loading')} />;
  if (uuid && existing.isError) return <InlineAlert>{existing.error.message}</InlineAlert>;
  return (
    <div data-testid={`form-${entity}`}>
      <PageHeader className="mb-4" title={t(`entities:${key}.${uuid ? 'edit' : 'create'}`)} />
      <EntityForm key={uuid ?? 'new'} entity={entity} uuid={uuid} item={existing.data?.data ?? null} />
    </div>
  );
}

function EntityForm({
  entity,
  uuid,
  item,
}: {
  entity: CrudEntity;
  uuid: string | undefined;
  item: Row | null;
}) {
  const config = entityConfigs[entity];
  const { api } = useServices();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { t, i18n } = useTranslation();
  const label = useFieldLabel();
  const defs = useMemo<FieldDef[]>(
    () =>
      describeSchema(config.input).filter(
        (d) => !config.exclude.includes(d.name) && d.kind !== 'unsupported',
      ),
    [config],
  );
  const [values, setValues] = useState<FormValues>(() => initialValues(defs, item));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [step, setStep] = useState<0 | 1>(0);
  const locale = i18n.language;

  /** Validates the whole form, or only the fields of one wizard step. */
  const validate = (only?: readonly string[]): { ok: boolean; data?: unknown; errors: FieldErrors } => {
    const parsed = config.input.safeParse(toInput(defs, values));
    if (parsed.success) {
      setErrors({});
      setFormError(null);
      return { ok: true, data: parsed.data, errors: {} };
    }
    let found = issuesToErrors(parsed.error.issues, locale, label);
    if (only) found = Object.fromEntries(Object.entries(found).filter(([k]) => only.includes(k)));
    setErrors(found);
    const ok = Object.keys(found).length === 0;
    setFormError(ok ? null : translate(locale, 'validation.formCheckEntries'));
    // A whole-form check that failed only on unknown paths still blocks saving.
    return { ok: ok && Boolean(only), errors: found };
  };

  const save = async () => {
    const result = validate();
    if (!result.ok) {
      if (config.steps) {
        // Show the step holding the first error.
        const first = Object.keys(result.errors)[0];
        if (first && config.steps[0]?.fields.includes(first)) setStep(0);
      }
      return;
    }
    setBusy(true);
    setFormError(null);
    try {
      const answer = uuid
        ? await requestByName<{ data: Row }>(api, `${config.group}.update`, {
            params: { uuid },
            body: result.data,
          })
        : await requestByName<{ data: Row }>(api, `${config.group}.create`, { body: result.data });
      await queryClient.invalidateQueries({ queryKey: ['list', config.group] });
      await queryClient.invalidateQueries({ queryKey: ['record', config.group] });
      await queryClient.invalidateQueries({ queryKey: ['options', config.group] });
      navigate(paths.details(entity, answer.data.uuid), { replace: true });
    } catch (error) {
      if (isApiError(error) && Object.keys(error.fieldErrors).length > 0) {
        const found = serverFieldErrors(error.fieldErrors, locale, label);
        setErrors(found);
        setFormError(translate(locale, 'validation.formCompleteRequired'));
        // The server refused a field of the other wizard step: go there, the message is at the field.
        if (config.steps) {
          const at = config.steps.findIndex((s) => s.fields.some((f) => f in found));
          if (at === 0 || at === 1) setStep(at);
        }
      } else {
        setFormError(error instanceof Error ? error.message : String(error));
      }
    } finally {
      setBusy(false);
    }
  };

  const renderFields = (names: readonly string[] | null) => (
    <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
      {defs
        .filter((d) => !names || names.includes(d.name))
        .map((def) =>
          def.kind === 'geometry' ? (
            <div key={def.name} className="sm:col-span-2">
              <span className="mb-1 block text-sm font-medium text-foreground">
                {t('geofences:draw.title')}
              </span>
              <GeometryEditor
                value={(values[def.name] as ApiGeometry | null) ?? null}
                color={typeof values.color === 'string' ? values.color : '#0f766e'}
                error={errors[def.name] ? t('geofences:draw.required') : undefined}
                onChange={(geometry) => {
                  setValues((v) => ({ ...v, [def.name]: geometry }));
                  setErrors(({ [def.name]: _gone, ...rest }) => rest);
                }}
              />
            </div>
          ) : (
            <FieldInput
              key={def.name}
              def={def}
              segment={entity}
              value={values[def.name]}
              error={errors[def.name]}
              onChange={(value) => {
                setValues((v) => ({ ...v, [def.name]: value }));
                setErrors(({ [def.name]: _gone, ...rest }) => rest);
              }}
            />
          ),
        )}
    </div>
  );

  const steps = config.steps;
  return (
    <Card>
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        {steps && steps.length === 2 ? (
          <>
            <TwoStepWizard
              label={t(`entities:${entityKey(entity)}.${uuid ? 'edit' : 'create'}`)}
              steps={steps.map((s) => ({
                id: s.key,
                title: t(`entities:step.${s.key}`),
                content: renderFields(s.fields),
                validate: () => validate(s.fields).ok,
              }))}
              step={step}
              onStepChange={(next) => setStep(next === 1 ? 1 : 0)}
              onSubmit={save}
              submitting={busy}
              // The form's own error box below says what failed (spec texts, server messages).
              showFormError={false}
              labels={{
                back: t('common:action.back'),
                next: t('common:action.next'),
                finish: t('common:action.save'),
              }}
            />
            {formError ? (
              <div className="mt-4">
                <InlineAlert>{formError}</InlineAlert>
              </div>
            ) : null}
          </>
        ) : (
          <>
            {renderFields(null)}
            {formError ? (
              <div className="mt-4">
                <InlineAlert>{formError}</InlineAlert>
              </div>
            ) : null}
            <div className="mt-6 flex justify-end gap-2">
              <Button type="button" variant="outline" onClick={() => navigate(-1)}>
                {t('common:action.cancel')}
              </Button>
              <Button type="submit" loading={busy} data-testid="form-save">
                {busy ? t('common:action.saving') : t('common:action.save')}
              </Button>
            </div>
          </>
        )}
      </form>
    </Card>
  );
}
