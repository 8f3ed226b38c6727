import { describe, expect, it } from 'vitest';
import { en } from '../i18n/en';
import { describeSchema } from '../forms/introspect';
import { crudEntities } from '../app/paths';
import { entityConfigs, entityKey, recordTitle } from './registry';
import { recordConfigs } from './records';

const labels = en.fields.label as Record<string, string>;

describe('entity registry', () => {
  it('has a config for every CRUD route of spec §2', () => {
    expect(Object.keys(entityConfigs).sort()).toEqual([...crudEntities].sort());
  });

  it.each(crudEntities)(
    '%s: every form field and column has an English label and an i18n title',
    (entity) => {
      const config = entityConfigs[entity];
      const names = describeSchema(config.input)
        .filter((d) => !config.exclude.includes(d.name) && d.kind !== 'unsupported')
        .map((d) => d.name);
      const missing = [...names, ...config.columns].filter((n) => !(n in labels));
      expect(missing).toEqual([]);
      expect(en.entities).toHaveProperty(entityKey(entity));
    },
  );

  it('two-step entities put every form field in exactly one step', () => {
    for (const entity of ['vehicles', 'schools'] as const) {
      const config = entityConfigs[entity];
      const names = describeSchema(config.input)
        .filter((d) => !config.exclude.includes(d.name) && d.kind !== 'unsupported')
        .map((d) => d.name)
        .sort();
      const stepped = config.steps!.flatMap((s) => s.fields).sort();
      expect(stepped).toEqual(names);
    }
  });

  it('record groups have labelled columns', () => {
    for (const config of Object.values(recordConfigs)) {
      expect(config.columns.filter((n) => !(n in labels))).toEqual([]);
    }
  });

  it.each([
    [{ uuid: 'u', license_plate_number: 'D 1', name: 'x' }, 'D 1'],
    [{ uuid: 'u', first_name: 'Sara', last_name: 'Ali' }, 'Sara Ali'],
    [{ uuid: 'u', name: 'Depot' }, 'Depot'],
    [{ uuid: 'u', imei: '356307042441013' }, '356307042441013'],
    [{ uuid: 'u' }, 'u'],
    [null, ''],
  ])('recordTitle(%o) = %s', (item, expected) => {
    expect(recordTitle(item)).toBe(expected);
  });
});
