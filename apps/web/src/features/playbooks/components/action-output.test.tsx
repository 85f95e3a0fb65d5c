import type { PlaybookRunDetail } from '@opsdeck/contracts';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ActionOutput } from './action-output';

type Action = PlaybookRunDetail['actions'][number];

function action(name: string, result: unknown): Action {
  return {
    id: `id-${name}`,
    playbook_run_id: 'run',
    name,
    status: 'completed',
    result,
    error: null,
    retry_count: 0,
    agent_id: '00000000-0000-0000-0000-000000000000',
    scheduled_time: '2026-01-01T00:00:00Z',
    start_time: '2026-01-01T00:00:00Z',
    end_time: '2026-01-01T00:00:01Z',
    created_at: '2026-01-01T00:00:00Z',
    updated_at: '2026-01-01T00:00:01Z',
  } as Action;
}

afterEach(cleanup);

describe('ActionOutput', () => {
  it('shows log lines of a logs action with how many of the matches they are', () => {
    render(
      <ActionOutput
        action={action('errors', {
          name: 'app-files',
          id: null,
          query: 'failed',
          start: null,
          end: null,
          direction: 'backward',
          total: 3,
          count: 2,
          logs: [
            { timestamp: '2026-01-01T00:00:02Z', message: 'out of stock', level: 'error', labels: {} },
            { timestamp: '2026-01-01T00:00:01Z', message: 'timeout', level: null, labels: {} },
          ],
        })}
      />,
    );
    expect(screen.getByText('2 of 3 log lines')).toBeTruthy();
    expect(screen.getByLabelText('errors output').textContent).toBe(
      '2026-01-01T00:00:02Z ERROR out of stock\n2026-01-01T00:00:01Z - timeout',
    );
  });

  it('shows the branch, commit, files and pull request of a gitops action', () => {
    render(
      <ActionOutput
        action={action('bump', {
          url: 'https://git.example/acme/deploy.git',
          base: 'main',
          branch: 'bump-v2',
          pushed: true,
          commit: '0123456789abcdef0123',
          changed: ['values.yaml', 'notes.md'],
          pullRequest: { created: true, number: 7, url: 'https://git.example/acme/deploy/pull/7' },
        })}
      />,
    );
    const output = screen.getByLabelText('bump output');
    expect(output.textContent).toContain('bump-v2 (from main)');
    expect(output.textContent).toContain('0123456789ab pushed');
    expect(output.textContent).toContain('values.yaml, notes.md');
    expect(screen.getByRole('link', { name: '#7' }).getAttribute('href')).toBe(
      'https://git.example/acme/deploy/pull/7',
    );
  });

  it('shows what an exec checked out above its output, and other results as JSON', () => {
    render(
      <ActionOutput
        action={action('script', {
          stdout: 'hello\n',
          stderr: '',
          exitCode: 0,
          checkout: {
            url: '/srv/scripts.git',
            branch: 'release',
            commit: 'abcdef0123456789',
            destination: '.',
          },
        })}
      />,
    );
    expect(screen.getByText('Checked out /srv/scripts.git (release) at abcdef012345')).toBeTruthy();
    expect(screen.getByLabelText('script output').textContent).toBe('hello\n');
    cleanup();
    render(<ActionOutput action={action('query', { rows: [{ a: 1 }], count: 1 })} />);
    expect(JSON.parse(screen.getByLabelText('query output').textContent ?? '')).toEqual({
      rows: [{ a: 1 }],
      count: 1,
    });
  });
});
