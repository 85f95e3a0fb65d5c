import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { StatusBadge } from '../status-badge/status-badge';
import { TagList } from '../tag-list/tag-list';
import { Badge } from './badge';

// Chips and badges in a narrow column: the text is cut with an ellipsis inside the container
// (one line, never wider than it) and the whole text is the element's tooltip (title).

afterEach(cleanup);

const LONG = 'arn:aws:eks:eu-west-1:123456789012:cluster/production-payments-platform-blue';

/** Cut to one line with an ellipsis and kept within its container (Tailwind's truncate + max-w-full). */
function expectClipped(element: HTMLElement) {
  expect(element.className.split(/\s+/)).toEqual(expect.arrayContaining(['truncate']));
}

describe('text clipping of chips and badges', () => {
  it('a Badge cuts long text with an ellipsis and shows it whole on hover', () => {
    render(
      <div style={{ width: 80 }}>
        <Badge tone="blue">{LONG}</Badge>
      </div>,
    );
    const badge = screen.getByText(LONG);
    expectClipped(badge);
    expect(badge.className).toContain('max-w-full');
    expect(badge.getAttribute('title')).toBe(LONG);
  });

  it('a Badge of a number or an element takes its title from the number or the caller', () => {
    render(
      <>
        <Badge>{42}</Badge>
        <Badge title="3 open incidents">
          <strong>3</strong> open
        </Badge>
        <Badge>
          <em>no text</em>
        </Badge>
      </>,
    );
    expect(screen.getByText('42').getAttribute('title')).toBe('42');
    expect(screen.getByTitle('3 open incidents').textContent).toBe('3 open');
    expect(screen.getByText('no text').parentElement?.hasAttribute('title')).toBe(false);
  });

  it('a StatusBadge cuts a long status word, keeps its dot, and shows the word on hover', () => {
    const word = 'ImagePullBackOffWithAVeryLongReason';
    render(<StatusBadge status={word} />);
    const text = screen.getByText(word);
    expectClipped(text);
    expect(text.getAttribute('title')).toBe(word);
    expect(text.parentElement?.className).toContain('max-w-full');
  });

  it('a tag chip shows the value cut in one line and "key: value" whole on hover', () => {
    render(<TagList tags={{ cluster: LONG }} />);
    const chip = screen.getByRole('button', { name: `cluster: ${LONG}` });
    expect(chip.getAttribute('title')).toBe(`cluster: ${LONG}`);
    expect(chip.className).toContain('max-w-full');
    expectClipped(screen.getByText(LONG));
  });
});
