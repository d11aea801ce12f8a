/**
 * URL input (spec section 5): http, https, ftp or ftps only. The field turns red and says why
 * once the person leaves it with an invalid URL; inside an antd Form use `urlRule` instead
 * and `showError={false}` so the message is shown once.
 */
import { isValidUrl } from '@backoffice/core/inputs';
import { Flex, Input, Typography } from 'antd';
import type { TFunction } from 'i18next';
import { useId, useState, type CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';

export interface UrlInputProps {
  value?: string;
  onChange?: (value: string) => void;
  /** Show the reason under the field (default true). */
  showError?: boolean;
  placeholder?: string;
  disabled?: boolean;
  status?: 'error' | 'warning';
  size?: 'small' | 'middle' | 'large';
  id?: string;
  className?: string;
  style?: CSSProperties;
  'aria-label'?: string;
  onBlur?: () => void;
}

/** antd Form rule with the same check and message. */
export function urlRule(t: TFunction) {
  return {
    validator: (_rule: unknown, value: unknown) =>
      value === undefined ||
      value === null ||
      value === '' ||
      (typeof value === 'string' && isValidUrl(value))
        ? Promise.resolve()
        : Promise.reject(new Error(t('inputs.url.invalid'))),
  };
}

export function UrlInput(props: UrlInputProps) {
  const { value, onChange, showError = true, onBlur, ...rest } = props;
  const { t } = useTranslation();
  const [inner, setInner] = useState(value ?? '');
  const text = value !== undefined ? value : inner;
  const [touched, setTouched] = useState(false);
  const errorId = useId();
  const invalid = touched && text.trim() !== '' && !isValidUrl(text);

  return (
    <Flex vertical gap={2} className={rest.className} style={rest.style}>
      <Input
        id={rest.id}
        type="url"
        inputMode="url"
        autoComplete="url"
        spellCheck={false}
        size={rest.size}
        disabled={rest.disabled}
        aria-label={rest['aria-label']}
        aria-invalid={invalid || rest.status === 'error' || undefined}
        aria-describedby={invalid && showError ? errorId : undefined}
        placeholder={rest.placeholder ?? t('inputs.url.placeholder')}
        status={invalid ? 'error' : rest.status}
        value={text}
        onChange={(e) => {
          if (value === undefined) setInner(e.target.value);
          onChange?.(e.target.value);
        }}
        onBlur={() => {
          setTouched(true);
          onBlur?.();
        }}
      />
      {invalid && showError && (
        <Typography.Text id={errorId} type="danger" style={{ fontSize: 12 }}>
          {t('inputs.url.invalid')}
        </Typography.Text>
      )}
    </Flex>
  );
}
