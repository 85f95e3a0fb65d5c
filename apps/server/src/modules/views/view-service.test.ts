import { describe, expect, it } from 'vitest';
import { fillPlaceholders, requestFingerprint, rowFieldsRead } from './view-service.js';

describe('rowFieldsRead', () => {
  it('lists the row fields the expressions read', () => {
    expect(rowFieldsRead(['row.name', "has(row.tags) ? row.tags.cpu : 'x'", 'var.row'])).toEqual(
      new Set(['name', 'tags']),
    );
  });

  it('passes every field when an expression uses the row whole, ignoring text in strings', () => {
    expect(rowFieldsRead(['row["name"]'])).toBeNull();
    expect(rowFieldsRead(['size(row) > 1'])).toBeNull();
    expect(rowFieldsRead(["'row' + row.name"])).toEqual(new Set(['name']));
  });
});

describe('fillPlaceholders', () => {
  it('fills variables and config fields in every string, empty when missing', () => {
    expect(
      fillPlaceholders(
        { tagSelector: 'cluster=$(var.cluster),ns={{ .var.ns }}', types: ['$(config.type)', '$(var.none)'] },
        { var: { cluster: 'a', ns: 'b' }, config: { type: 'Kubernetes::Pod' } },
      ),
    ).toEqual({ tagSelector: 'cluster=a,ns=b', types: ['Kubernetes::Pod', ''] });
  });
});

describe('requestFingerprint', () => {
  it('is the same for the same values in any order, different otherwise', () => {
    expect(requestFingerprint({ a: '1', b: '2' }, null)).toBe(requestFingerprint({ b: '2', a: '1' }, null));
    expect(requestFingerprint({ a: '1' }, null)).not.toBe(requestFingerprint({ a: '2' }, null));
    expect(requestFingerprint({ a: '1' }, null)).not.toBe(requestFingerprint({ a: '1' }, 'c1'));
  });
});
