import { useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { Button } from '../../../components/button/button';
import { Input } from '../../../components/input/input';
import { showErrorToast } from '../../../components/toasts/toasts';
import type { NamedRef } from '../api/incident-detail';
import { requiredText } from '../lib/incident-form';
import { activeMention, insertMention, mentionCandidates, parseMentions } from '../lib/mentions';

/** A comment rendered with its @mentions highlighted. */
export function CommentText({ comment }: { comment: string }) {
  return (
    <p className="whitespace-pre-wrap">
      {parseMentions(comment).map((part, index) =>
        'text' in part ? (
          <span key={index}>{part.text}</span>
        ) : (
          <span
            key={index}
            data-mention={part.mention.id}
            className="rounded bg-blue-50 px-0.5 font-medium text-blue-800"
          >
            @{part.mention.name}
          </span>
        ),
      )}
    </p>
  );
}

/**
 * A one-line comment form where '@' offers people to mention (arrow keys or a click to pick);
 * trims, refuses blank text and clears after a successful save.
 */
export function MentionInput(props: {
  label: string;
  button: string;
  people: readonly NamedRef[];
  onAdd(text: string): Promise<unknown>;
}) {
  const [text, setText] = useState('');
  const [caret, setCaret] = useState(0);
  const [busy, setBusy] = useState(false);
  const [highlight, setHighlight] = useState(0);
  const [dismissed, setDismissed] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const mention = dismissed ? undefined : activeMention(text, caret);
  const candidates = mention ? mentionCandidates(props.people, mention.query) : [];
  const open = candidates.length > 0;

  const pick = (person: NamedRef) => {
    if (!mention) return;
    const next = insertMention(text, mention, person);
    setText(next.text);
    setCaret(next.caret);
    setHighlight(0);
    requestAnimationFrame(() => {
      input.current?.focus();
      input.current?.setSelectionRange(next.caret, next.caret);
    });
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (!open) return;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setHighlight((h) => (h + step + candidates.length) % candidates.length);
    } else if (event.key === 'Enter' || event.key === 'Tab') {
      event.preventDefault();
      pick(candidates[Math.min(highlight, candidates.length - 1)]!);
    } else if (event.key === 'Escape') {
      event.preventDefault();
      setDismissed(true);
    }
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const value = requiredText(text);
    if (!value) return;
    setBusy(true);
    props
      .onAdd(value)
      .then(() => {
        setText('');
        setCaret(0);
      })
      .catch((error: unknown) => showErrorToast(error))
      .finally(() => setBusy(false));
  };

  return (
    <form onSubmit={submit} className="relative flex items-center gap-2">
      <Input
        compact
        ref={input}
        aria-label={props.label}
        role="combobox"
        aria-expanded={open}
        aria-autocomplete="list"
        value={text}
        placeholder="Comment, @ to mention"
        onChange={(e) => {
          setText(e.target.value);
          setCaret(e.target.selectionStart ?? e.target.value.length);
          setDismissed(false);
          setHighlight(0);
        }}
        onSelect={(e) => setCaret(e.currentTarget.selectionStart ?? 0)}
        onKeyDown={onKeyDown}
        className="min-w-64"
      />
      {open && (
        <ul
          role="listbox"
          aria-label="Mention a person"
          className="absolute top-full left-0 z-10 mt-1 max-h-48 w-64 overflow-auto rounded border border-gray-200 bg-white shadow"
        >
          {candidates.map((person, index) => (
            <li
              key={person.id}
              role="option"
              aria-selected={index === highlight}
              onMouseDown={(e) => {
                e.preventDefault();
                pick(person);
              }}
              className={`cursor-pointer px-2 py-1 text-sm ${index === highlight ? 'bg-blue-50' : ''}`}
            >
              {person.name}
            </li>
          ))}
        </ul>
      )}
      <Button size="sm" type="submit" disabled={busy || !text.trim()}>
        {props.button}
      </Button>
    </form>
  );
}
