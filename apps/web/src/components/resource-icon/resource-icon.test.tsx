import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { iconFor } from './icon-for';
import { ResourceIcon } from './resource-icon';

afterEach(cleanup);

describe('iconFor', () => {
  it('maps the most specific part of a type', () => {
    expect(iconFor({ type: 'Kubernetes::Pod' })).toBe('container');
    expect(iconFor({ type: 'Kubernetes::Deployment' })).toBe('workload');
    expect(iconFor({ type: 'Kubernetes::Cluster' })).toBe('cluster');
    expect(iconFor({ type: 'AWS::EC2::Instance' })).toBe('server');
    expect(iconFor({ type: 'AWS::S3::Bucket' })).toBe('storage');
    expect(iconFor({ type: 'postgres' })).toBe('database');
    expect(iconFor({ type: 'http' })).toBe('web');
    expect(iconFor({ type: 'icmp' })).toBe('probe');
  });

  it('prefers the explicit icon and the config_class over the type', () => {
    expect(iconFor({ configClass: 'Database', type: 'AWS::RDS::Instance' })).toBe('database');
    expect(iconFor({ icon: 'group', type: 'http' })).toBe('team');
  });

  it('falls back to partial words, then to a default', () => {
    expect(iconFor({ type: 'Kubernetes::PersistentVolumeClaimTemplate' })).toBe('storage');
    expect(iconFor({ type: 'Custom::Thing' })).toBe('default');
    expect(iconFor({})).toBe('default');
  });
});

describe('ResourceIcon', () => {
  it('renders a named icon when labelled, decorative otherwise', () => {
    const { container } = render(
      <>
        <ResourceIcon type="Kubernetes::Pod" label="Pod" />
        <ResourceIcon type="mysql" />
      </>,
    );
    expect(screen.getByRole('img', { name: 'Pod' }).getAttribute('data-icon')).toBe('container');
    const decorative = container.querySelector('[data-icon="database"]');
    expect(decorative?.getAttribute('aria-hidden')).toBe('true');
  });
});
