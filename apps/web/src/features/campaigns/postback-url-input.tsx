/**
 * The postback URL of an event, with its macros documented beside it: each macro with what it
 * sends and an example (a button adds it at the cursor), and the URL as it would be sent, resolved
 * live as one types with the event's own figures (the payout, revenue and code typed in the form,
 * the campaign's currency and offer) and examples for the rest. An unknown macro or a URL the rule
 * refuses is said at once, with the same keys the form's check and the API use (core postback.ts).
 */
import { WarningOutlined } from '@ant-design/icons';
import {
  exampleValues,
  POSTBACK_MACROS,
  postbackUrlProblem,
  resolveMacros,
  unknownMacros,
} from '@backoffice/core/postback';
import { Button, Form, Input, Typography, type InputRef } from 'antd';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';

export interface PostbackContext {
  campaignId: number;
  offerId: number | null;
  currency: string | null;
  /** The event's id once saved. */
  eventId: number | null;
}

export function PostbackUrlInput({
  id,
  value,
  onChange,
  context,
}: {
  id?: string;
  value?: string | null;
  onChange?: (v: string) => void;
  context: PostbackContext;
}) {
  const { t } = useTranslation();
  const input = useRef<InputRef>(null);
  const payout = Form.useWatch<string | null | undefined>('payout');
  const revenue = Form.useWatch<string | null | undefined>('revenue');
  const code = Form.useWatch<string | null | undefined>('code');
  const text = value ?? '';
  const values = exampleValues({
    payout: payout === null || payout === undefined ? null : String(payout),
    revenue: revenue === null || revenue === undefined ? null : String(revenue),
    event: code,
    event_id: context.eventId,
    campaign_id: context.campaignId,
    offer_id: context.offerId,
    currency: context.currency,
  });
  const unknown = unknownMacros(text);
  const problem = text.trim() === '' ? null : postbackUrlProblem(text);

  /** Puts `{macro}` at the cursor (or at the end), and the cursor after it. */
  const insert = (name: string) => {
    const element = input.current?.input;
    const token = `{${name}}`;
    const start = element?.selectionStart ?? text.length;
    const end = element?.selectionEnd ?? text.length;
    onChange?.(`${text.slice(0, start)}${token}${text.slice(end)}`);
    requestAnimationFrame(() => {
      element?.focus();
      element?.setSelectionRange(start + token.length, start + token.length);
    });
  };

  return (
    <div className="bo-camp-postback">
      <Input
        ref={input}
        id={id}
        value={text}
        onChange={(e) => onChange?.(e.target.value)}
        type="url"
        inputMode="url"
        autoComplete="off"
        spellCheck={false}
      />
      <div className="bo-camp-resolved" role="status" aria-live="polite" data-testid="postback-resolved">
        <Typography.Text strong>{t('campaign.macros.resolved')}</Typography.Text>
        {text.trim() === '' ? (
          <Typography.Text type="secondary">{t('campaign.macros.resolved_none')}</Typography.Text>
        ) : unknown.length > 0 ? (
          <Typography.Text className="bo-camp-warning">
            <WarningOutlined className="bo-camp-warning__icon" />{' '}
            {t('campaign.macros.unknown', { list: unknown.join(', ') })}
          </Typography.Text>
        ) : problem ? (
          <Typography.Text className="bo-camp-warning">
            <WarningOutlined className="bo-camp-warning__icon" /> {t(problem)}
          </Typography.Text>
        ) : (
          <code className="bo-camp-url" data-testid="postback-resolved-url">
            {resolveMacros(text.trim(), values)}
          </code>
        )}
      </div>
      <section
        className="bo-camp-macros"
        aria-labelledby={`${id ?? 'postback'}-macros`}
        data-testid="postback-macros"
      >
        <Typography.Text strong id={`${id ?? 'postback'}-macros`}>
          {t('campaign.macros.title')}
        </Typography.Text>
        <Typography.Paragraph type="secondary" className="bo-camp-macros__intro">
          {t('campaign.macros.intro')}
        </Typography.Paragraph>
        <table className="bo-camp-macros__table">
          <thead>
            <tr>
              <th scope="col">{t('campaign.macros.macro')}</th>
              <th scope="col">{t('campaign.macros.meaning')}</th>
              <th scope="col">{t('campaign.macros.example')}</th>
            </tr>
          </thead>
          <tbody>
            {POSTBACK_MACROS.map((m) => (
              <tr key={m.name}>
                <td>
                  <Button
                    size="small"
                    type="link"
                    className="bo-camp-macro"
                    onClick={() => insert(m.name)}
                    aria-label={t('campaign.macros.insert', { macro: `{${m.name}}` })}
                  >
                    <code>{`{${m.name}}`}</code>
                  </Button>
                </td>
                <td>{t(m.description)}</td>
                <td>
                  <code>{values[m.name]}</code>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </div>
  );
}
