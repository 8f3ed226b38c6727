import { intlLocale } from '@fleet/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { ReactNode } from 'react';
import { requestByName, type ListAnswer } from '../entities/api';
import { optionGroup, useFieldLabel } from '../entities/display';
import { recordTitle } from '../entities/registry';
import { useCoreText } from '../i18n/core-text';
import { useServices, useSession } from '../state/app-context';
import type { FieldDef } from './introspect';
import { cn, controlRecipe, FormField, Input, NativeSelect, Textarea, type InputKind } from '@fleet/ui';

/** Options of a reference field: the referenced entity's records (first 500, by name). */
function useReferenceOptions(group: string | undefined) {
  const { api } = useServices();
  const { company } = useSession();
  return useQuery({
    queryKey: ['options', group, company?.uuid],
    queryFn: ({ signal }) =>
      requestByName<ListAnswer>(api, `${group}.list`, { query: { limit: 500, order: 'asc' }, signal }),
    enabled: Boolean(group),
    staleTime: 60_000,
    select: (answer) => answer.data.map((row) => ({ value: row.uuid, label: recordTitle(row) })),
  });
}

const DAYS = ['1', '2', '3', '4', '5', '6', '7'] as const;

export function FieldInput({
  def,
  segment,
  value,
  error,
  onChange,
  extra,
}: {
  def: FieldDef;
  segment: string;
  value: unknown;
  error: string | undefined;
  onChange: (value: unknown) => void;
  extra?: ReactNode;
}) {
  const { t, i18n } = useTranslation('fields');
  const core = useCoreText();
  const label = useFieldLabel()(def.name);
  const id = `field-${def.name}`;
  const refs = useReferenceOptions(
    def.kind === 'reference' || def.kind === 'references' ? def.ref : undefined,
  );
  const common = {
    id,
    name: def.name,
    'aria-invalid': Boolean(error),
    'aria-describedby': error ? `${id}-error` : undefined,
  };
  const hint =
    def.name === 'national_id'
      ? core('validation.nationalIdHint')
      : def.name.includes('imei')
        ? t('hint.imei')
        : undefined;
  const text = typeof value === 'string' ? value : '';
  const group = optionGroup(def.name, segment);
  const optionLabel = (o: string) => (group ? t(`option.${group}.${o}`, { defaultValue: o }) : o);

  let control: ReactNode;
  switch (def.kind) {
    case 'textarea':
      control = <Textarea {...common} value={text} onChange={(e) => onChange(e.target.value)} />;
      break;
    case 'select':
      control = (
        <NativeSelect {...common} value={text} onChange={(e) => onChange(e.target.value)}>
          <option value="">—</option>
          {(def.options ?? []).map((o) => (
            <option key={o} value={o}>
              {optionLabel(o)}
            </option>
          ))}
        </NativeSelect>
      );
      break;
    case 'reference':
      control = (
        <NativeSelect {...common} value={text} onChange={(e) => onChange(e.target.value)}>
          <option value="">—</option>
          {(refs.data ?? []).map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </NativeSelect>
      );
      break;
    case 'references':
    case 'multiselect': {
      const selected = new Set((value as string[]) ?? []);
      const options =
        def.kind === 'references'
          ? (refs.data ?? [])
          : (def.options ?? []).map((o) => ({ value: o, label: optionLabel(o) }));
      control = (
        <div
          id={id}
          role="group"
          className="flex max-h-40 flex-wrap gap-2 overflow-y-auto rounded-md border border-border p-2"
        >
          {options.map((o) => (
            <label key={o.value} className="inline-flex items-center gap-1 text-sm text-foreground">
              <input
                type="checkbox"
                checked={selected.has(o.value)}
                onChange={(e) => {
                  const next = new Set(selected);
                  if (e.target.checked) next.add(o.value);
                  else next.delete(o.value);
                  onChange([...next]);
                }}
              />
              {o.label}
            </label>
          ))}
        </div>
      );
      break;
    }
    case 'days': {
      const selected = new Set((value as string[]) ?? []);
      const names = new Intl.DateTimeFormat(intlLocale(i18n.language), { weekday: 'short' });
      // ISO weekday 1 = Monday; 2024-01-01 was a Monday.
      control = (
        <div id={id} role="group" className="flex flex-wrap gap-2">
          {DAYS.map((d) => (
            <label key={d} className="inline-flex items-center gap-1 text-sm text-foreground">
              <input
                type="checkbox"
                checked={selected.has(d)}
                onChange={(e) => {
                  const next = new Set(selected);
                  if (e.target.checked) next.add(d);
                  else next.delete(d);
                  onChange([...next].sort());
                }}
              />
              {names.format(new Date(Date.UTC(2024, 0, Number(d), 12)))}
            </label>
          ))}
        </div>
      );
      break;
    }
    case 'boolean':
      control = (
        <input
          {...common}
          type="checkbox"
          className="size-5"
          checked={value === true}
          onChange={(e) => onChange(e.target.checked)}
        />
      );
      break;
    case 'place':
    case 'coordinates': {
      const place = (value ?? { latitude: '', longitude: '' }) as {
        latitude: string;
        longitude: string;
        address?: string;
      };
      control = (
        <div id={id} className="grid grid-cols-2 gap-2">
          {def.kind === 'place' ? (
            <Input
              className="col-span-2"
              aria-label={t('label.address')}
              value={place.address ?? ''}
              onChange={(e) => onChange({ ...place, address: e.target.value })}
            />
          ) : null}
          <Input
            dir="ltr"
            inputMode="decimal"
            aria-label={t('label.latitude')}
            placeholder={t('label.latitude')}
            value={place.latitude}
            onChange={(e) => onChange({ ...place, latitude: e.target.value })}
          />
          <Input
            dir="ltr"
            inputMode="decimal"
            aria-label={t('label.longitude')}
            placeholder={t('label.longitude')}
            value={place.longitude}
            onChange={(e) => onChange({ ...place, longitude: e.target.value })}
          />
        </div>
      );
      break;
    }
    case 'color':
      control = (
        // The kit's Input has no colour kind: the native picker with the kit's control look.
        <input
          {...common}
          type="color"
          className={cn(controlRecipe(), 'w-20 p-1')}
          value={text}
          onChange={(e) => onChange(e.target.value)}
        />
      );
      break;
    default: {
      // Numbers are typed as text on purpose so a non-number reaches the contract and gets its
      // 'Please enter a valid {field}' text.
      const kind: InputKind | null =
        def.kind === 'date' || def.kind === 'time' || def.kind === 'email' || def.kind === 'password'
          ? def.kind
          : def.kind === 'phone'
            ? 'phone'
            : def.kind === 'datetime'
              ? null
              : 'text';
      const ltr =
        ['number', 'email', 'phone', 'date', 'time', 'datetime'].includes(def.kind) ||
        /imei|plate|number|code|_no$/.test(def.name);
      const shared = {
        ...common,
        dir: ltr ? 'ltr' : undefined,
        inputMode: def.kind === 'number' ? ('decimal' as const) : undefined,
        placeholder: def.name === 'national_id' ? core('validation.nationalIdHint') : undefined,
        value: text,
        onChange: (e: React.ChangeEvent<HTMLInputElement>) => onChange(e.target.value),
      };
      // Date and time together has no kit kind: the native control with the kit's look.
      control = kind ? (
        <Input {...shared} kind={kind} />
      ) : (
        <input {...shared} type="datetime-local" className={controlRecipe()} />
      );
    }
  }

  return (
    <FormField
      id={id}
      label={label}
      optional={!def.required}
      hint={hint}
      error={error}
      className={
        def.kind === 'textarea' || def.kind === 'place' || def.kind === 'references'
          ? 'sm:col-span-2'
          : undefined
      }
    >
      {control}
      {extra}
    </FormField>
  );
}
