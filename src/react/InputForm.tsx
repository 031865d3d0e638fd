import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { answerLabel } from '../../machines/chat-session.js';
import { expectedValue, type InputValue } from '../inputs/expected-value.js';
import type { OpenInput } from '../inputs/gate.js';
import { useTypedReader, type TypedReader } from './typed-reader.js';

export interface InputFormProps {
  input: OpenInput;
  /** Called with the value (text as typed for the server to read by the gate's type) and how to show it. */
  onAnswer: (value: InputValue, label: string) => void;
  /** The answer is being sent: the form is kept as it is, its button disabled. */
  busy?: boolean;
  /** The server's refusal of the last value (the gate is still open): shown beside the control. */
  error?: string | null;
  /** A line under the label (a deadline in words, where the gate comes from). */
  note?: ReactNode;
  /** The submit button's words. */
  submitLabel?: string;
  /** The label is already in view just above (the conversation's last message says it): kept for screen readers only. */
  hideLabel?: boolean;
  /**
   * A question asked in the chat (an agent's clarification): answered as a
   * chat is, so no "Expected: …" line, and a few choices are buttons.
   */
  conversational?: boolean;
}

/** At most this many choices of a conversational question are buttons; more are a list to choose from. */
export const MAX_CHOICE_BUTTONS = 6;

/** A name such as `approved_amount` in words: "Approved amount". */
export function humanName(name: string): string {
  const words = name.replace(/[_-]+/g, ' ').replace(/([a-z])([A-Z])/g, '$1 $2').trim().toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** What the control is labelled with: the gate's description, else its name in words. */
export const inputLabel = (input: Pick<OpenInput, 'description' | 'name'>) => input.description ?? humanName(input.name);

/** The local date as YYYY-MM-DD (`today` in a date input's bounds). */
function isoDay(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}
const dayBound = (bound: string | undefined) => (bound === 'today' ? isoDay(new Date()) : bound);

/** The draft a gate's control starts with: its default when it has one. */
function initialDraft(input: OpenInput): string {
  const spec = input.spec;
  if (spec.default === undefined) return '';
  if (spec.type === 'json') return JSON.stringify(spec.default, null, 2);
  return String(spec.default);
}

/**
 * One input gate as a form: the control that fits its type (Yes/No for a
 * boolean, a number field with its bounds, a select for an enum (a button
 * per option where other words may answer too: `passOtherText`), a date
 * field, an email field, a text area for JSON, a text field), labelled by the
 * gate's description, with a submit button. What is typed is sent as typed:
 * the server reads it by the gate's type (one way of reading values for the
 * chat, the API, the CLI and this form), and its refusal is shown here while
 * the draft stays as it was. No browser validation: the server's message says
 * what was expected. Only what cannot be an answer is held back here: no
 * choice made, nothing typed, or text a number field could not read.
 */
export function InputForm({ input, onAnswer, busy = false, error = null, note, submitLabel = 'Send', hideLabel = false, conversational = false }: InputFormProps) {
  const id = useId();
  const [draft, setDraft] = useState(() => initialDraft(input));
  /** Why the draft was not sent (nothing to send); cleared as soon as it changes. */
  const [unsent, setUnsent] = useState<string | null>(null);
  /** The last value sent: a refusal of it is said in the person's terms. */
  const [sent, setSent] = useState<{ value: InputValue } | null>(null);
  const label = inputLabel(input);
  const { spec } = input;
  const hint = spec.type === 'boolean' || spec.type === 'enum' || conversational ? null : `Expected: ${expectedValue(spec)}.`;
  const reader = useTypedReader(error);
  const shownError = unsent ?? (error && sent ? refusalInWords(input, sent.value, error, reader) : error);
  const describedBy = [note ? `${id}-note` : null, hint ? `${id}-hint` : null, shownError ? `${id}-error` : null].filter(Boolean).join(' ') || undefined;
  const invalid = shownError ? true : undefined;
  const labelClass = hideLabel ? 'gf-input-label gf-visually-hidden' : 'gf-input-label';
  // A choice the person may also answer in other words (the chat's text box stays beside it): one button per option, a press answers.
  const quick = spec.type === 'enum' && (spec.passOtherText === true || (conversational && (input.options ?? []).length <= MAX_CHOICE_BUTTONS));
  const edit = (next: string) => {
    setDraft(next);
    setUnsent(null);
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    // The form's first control: the field, or the first option of a choice.
    const control = event.currentTarget.querySelector<HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>('input, select, textarea');
    const held = nothingToSend(input, draft, control?.validity.badInput === true);
    setUnsent(held);
    if (held !== null) {
      control?.focus();
      return;
    }
    const value = valueOf(input, draft);
    setSent({ value });
    onAnswer(value, labelOf(input, value, draft));
  };
  const choose = (value: InputValue) => {
    if (busy) return;
    setSent({ value });
    onAnswer(value, labelOf(input, value, String(value)));
  };

  const common = { id: `${id}-control`, 'aria-describedby': describedBy, 'aria-invalid': invalid };
  let control: ReactNode;
  switch (spec.type) {
    case 'boolean':
    case 'enum':
      control =
        quick ? (
          <div className="gf-buttons" role="group" aria-labelledby={`${id}-label`} aria-describedby={describedBy}>
            {(input.options ?? []).map((option) => (
              <button key={String(option.value)} type="button" disabled={busy} onClick={() => choose(option.value)}>
                {option.label}
              </button>
            ))}
          </div>
        ) : spec.type === 'boolean' ? (
          <div className="gf-choice" role="radiogroup" aria-labelledby={`${id}-label`} aria-describedby={describedBy} aria-invalid={invalid}>
            {(input.options ?? []).map((option) => (
              <label key={String(option.value)}>
                <input type="radio" name={`${id}-choice`} value={String(option.value)} checked={draft === String(option.value)} onChange={() => edit(String(option.value))} />
                {option.label}
              </label>
            ))}
          </div>
        ) : (
          <select {...common} value={draft} onChange={(e) => edit(e.target.value)}>
            <option value="">Choose…</option>
            {(input.options ?? []).map((option) => (
              <option key={String(option.value)} value={String(option.value)}>
                {option.label}
              </option>
            ))}
          </select>
        );
      break;
    case 'number':
    case 'integer':
      control = (
        <input
          {...common}
          type="number"
          inputMode={spec.type === 'integer' ? 'numeric' : 'decimal'}
          step={spec.type === 'integer' ? 1 : 'any'}
          min={spec.min}
          max={spec.max}
          value={draft}
          onChange={(e) => edit(e.target.value)}
        />
      );
      break;
    case 'date':
      control = <input {...common} type="date" min={dayBound(spec.min)} max={dayBound(spec.max)} value={draft} onChange={(e) => edit(e.target.value)} />;
      break;
    case 'email':
      control = <input {...common} type="email" autoComplete="email" value={draft} onChange={(e) => edit(e.target.value)} />;
      break;
    case 'json':
      control = <textarea {...common} rows={4} spellCheck={false} value={draft} onChange={(e) => edit(e.target.value)} />;
      break;
    case 'string':
      // No maxLength: the browser would cut what is pasted past it, unsaid. The hint says the limit, and the server refuses a longer text with the draft kept.
      control = <input {...common} type="text" value={draft} onChange={(e) => edit(e.target.value)} />;
      break;
  }

  return (
    <form className={`gf-input-form gf-input-${spec.type}`} aria-labelledby={`${id}-label`} onSubmit={submit} noValidate data-gate={input.gateId} aria-busy={busy}>
      {spec.type === 'boolean' || quick ? (
        <p id={`${id}-label`} className={labelClass}>
          {label}
        </p>
      ) : (
        <label id={`${id}-label`} htmlFor={`${id}-control`} className={labelClass}>
          {label}
        </label>
      )}
      {note && (
        <p id={`${id}-note`} className="gf-input-note">
          {note}
        </p>
      )}
      <div className="gf-input-row">
        {control}
        {!quick && (
          <button type="submit" className="gf-primary" disabled={busy}>
            {busy ? 'Sending…' : submitLabel}
          </button>
        )}
      </div>
      {hint && (
        <p id={`${id}-hint`} className="gf-input-hint">
          {hint}
        </p>
      )}
      {shownError && (
        <p id={`${id}-error`} className="gf-input-error" role="alert">
          {shownError}
        </p>
      )}
    </form>
  );
}

/**
 * Why a draft cannot be sent at all, or null: no option chosen, nothing
 * typed, or text a number field could not read (the browser then gives the
 * form an empty value, which would be sent as "nothing"). Anything else goes
 * to the server, which reads and checks it.
 */
function nothingToSend(input: OpenInput, draft: string, unreadable: boolean): string | null {
  const { spec } = input;
  if (spec.type === 'boolean' || spec.type === 'enum')
    return valueOf(input, draft) === null ? `Choose one: ${(input.options ?? []).map((o) => o.label).join(' or ')}.` : null;
  if (unreadable) return `That is not a number. Expected ${expectedValue(spec)}.`;
  if (draft.trim() === '') return `Nothing to send yet. Expected ${expectedValue(spec)}.`;
  return null;
}

/**
 * A refusal in the person's terms: the server's message names the gate and
 * its id for logs and scripts; the same reading done here (the one the
 * server does) says only what was wrong with the value. Where the two
 * disagree (a date bound read on another day), the server's words stand.
 * A JSON value is only read as JSON here: its schema is checked by the
 * server, whose words stand (checking it here would load classic zod). Until
 * the typed reader has loaded (./typed-reader.ts), the server's words stand.
 */
export function refusalInWords(input: OpenInput, value: InputValue, serverMessage: string, reader: TypedReader | undefined): string {
  if (!reader) return serverMessage;
  const read = reader(input.spec, value, new Date());
  return read.ok ? serverMessage : read.message;
}

/** The value a draft stands for: a boolean's or enum's option value (null when none is chosen), else the text as typed. */
function valueOf(input: OpenInput, draft: string): InputValue {
  if (input.type === 'boolean' || input.type === 'enum') {
    const option = input.options?.find((o) => String(o.value) === draft);
    return option ? option.value : null;
  }
  return draft;
}

/** How the transcript shows an answer: an option's label, else what was typed. */
function labelOf(input: OpenInput, value: InputValue, draft: string): string {
  return input.options ? answerLabel(input, value) : draft.trim();
}
