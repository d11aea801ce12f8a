/**
 * A JSON value edited as text: each edit that parses is applied (`onChange`), one that does not is
 * kept as typed with a note under it, so nothing typed is lost; when the value changes elsewhere
 * (another view of the same document), the text follows unless it already says the same.
 */
import { Input, Typography } from 'antd';
import { useState } from 'react';

export interface JsonTextAreaProps<T> {
  id?: string;
  value: T;
  /** Called with each edit that parses and passes `accept` (default: any JSON). */
  onChange: (value: T) => void;
  label: string;
  /** The note while the text is not acceptable JSON. */
  invalidText: string;
  /** Whether a parsed value may be applied (e.g. only objects). */
  accept?: (parsed: unknown) => parsed is T;
  className?: string;
  minRows?: number;
  maxRows?: number;
  testId?: string;
}

const same = (text: string, value: unknown) => {
  try {
    return JSON.stringify(JSON.parse(text)) === JSON.stringify(value ?? null);
  } catch {
    return false;
  }
};

export function JsonTextArea<T>({ id, value, onChange, label, invalidText, accept, className, minRows = 2, maxRows = 14, testId }: JsonTextAreaProps<T>) {
  const serialized = JSON.stringify(value ?? null, null, 2);
  const [text, setText] = useState(serialized);
  const [synced, setSynced] = useState(serialized);
  const [invalid, setInvalid] = useState(false);
  if (serialized !== synced) {
    setSynced(serialized);
    if (!same(text, value)) {
      setText(serialized);
      setInvalid(false);
    }
  }
  return (
    <>
      <Input.TextArea
        id={id}
        className={className}
        aria-label={label}
        aria-invalid={invalid || undefined}
        value={text}
        autoSize={{ minRows, maxRows }}
        spellCheck={false}
        status={invalid ? 'warning' : undefined}
        data-testid={testId}
        onChange={(e) => {
          setText(e.target.value);
          let parsed: unknown;
          try {
            parsed = JSON.parse(e.target.value);
          } catch {
            setInvalid(true);
            return;
          }
          if (accept && !accept(parsed)) {
            setInvalid(true);
            return;
          }
          setInvalid(false);
          onChange(parsed as T);
        }}
      />
      {invalid ? (
        <Typography.Text type="warning" role="status">
          {invalidText}
        </Typography.Text>
      ) : null}
    </>
  );
}
