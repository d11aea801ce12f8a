/**
 * "Which rule applies?": a request's attributes in, the rule that wins out, with the runners-up
 * and why (core's resolution on the server, the same one the API and the Prebid export use).
 */
import { CheckCircleFilled, MinusCircleOutlined } from '@ant-design/icons';
import { FLOOR_KEYS, type FloorKey } from '@backoffice/core/floors';
import { Alert, Button, Card, Form, Space, Table, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocale } from '../../components/use-locale.ts';
import { api, errorText, isSessionError } from '../../lib/api.ts';
import type { TestAnswer, TestMatch } from './floors-api.ts';
import { KeyInputs, keysOut, type KeyValues } from './key-inputs.tsx';
import { RuleKeys, TypeTag, cpmText, keyValue } from './rule-view.tsx';
import { ScrollRegion } from '../../components/scroll-region.tsx';

/** Why the winner beats the next rule: more keys, or as many and an earlier key. */
function why(
  winner: TestMatch,
  next: TestMatch | undefined,
  t: (k: string, o?: Record<string, unknown>) => string,
): string {
  if (!next) return t('floors.tester.why_only');
  if (winner.specificity > next.specificity)
    return t('floors.tester.why_specific', { count: winner.specificity });
  const key = FLOOR_KEYS.find((k) => winner.keys[k] === 'exact' && next.keys[k] !== 'exact') ?? FLOOR_KEYS[0];
  return t('floors.tester.why_tie', { count: winner.specificity, key: t(`floors.key.${key}`).toLowerCase() });
}

export function TesterTab() {
  const { t } = useTranslation();
  const locale = useLocale();
  const [form] = Form.useForm();
  const [answer, setAnswer] = useState<TestAnswer | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const run = async () => {
    const keys = keysOut((form.getFieldsValue(true) ?? {}) as KeyValues);
    const body = Object.fromEntries(Object.entries(keys).filter(([, v]) => v !== '*'));
    setBusy(true);
    setError(null);
    try {
      setAnswer(await api.request<TestAnswer>('floors/test', { method: 'POST', body }));
    } catch (e) {
      if (!isSessionError(e)) setError(errorText(e));
    } finally {
      setBusy(false);
    }
  };

  const matches = answer
    ? [answer.winner, ...answer.runners_up].filter((m): m is TestMatch => m !== null)
    : [];
  const keyColumn = (k: FloorKey) => ({
    key: k,
    title: t(`floors.key.${k}`),
    render: (_: unknown, m: TestMatch) => {
      const v = keyValue(m.rule, k);
      return m.keys[k] === 'exact' ? (
        <span className="bo-floors-match" title={t('floors.tester.exact')}>
          <CheckCircleFilled aria-label={t('floors.tester.exact')} /> {v}
        </span>
      ) : (
        <span className="bo-floors-any" title={t('floors.tester.wildcard')}>
          <MinusCircleOutlined aria-hidden /> {t('floors.any')}
        </span>
      );
    },
  });

  return (
    <div className="bo-floors-tester" data-testid="floors-tester">
      <Typography.Paragraph type="secondary">{t('floors.tester.intro')}</Typography.Paragraph>
      <Form form={form} layout="vertical" onFinish={() => void run()}>
        <KeyInputs />
        <Space>
          <Button type="primary" htmlType="submit" loading={busy} data-testid="floors-tester-run">
            {t('floors.tester.run')}
          </Button>
          <Button
            onClick={() => {
              form.resetFields();
              setAnswer(null);
            }}
          >
            {t('floors.tester.clear')}
          </Button>
        </Space>
      </Form>
      {error ? <Alert type="error" showIcon title={error} className="bo-floors-gap" /> : null}
      {answer ? (
        <div className="bo-floors-result" data-testid="floors-tester-result">
          {answer.winner ? (
            <Card size="small" className="bo-floors-winner" data-testid="floors-tester-winner">
              <div className="bo-floors-winner__head">
                <div>
                  <Typography.Text type="secondary">{t('floors.tester.winner')}</Typography.Text>
                  <div className="bo-floors-winner__cpm" data-testid="floors-tester-cpm">
                    {cpmText(answer.winner.rule.cpm, answer.winner.rule.currency, locale)}
                  </div>
                </div>
                <TypeTag type={answer.winner.rule.type} />
              </div>
              <RuleKeys rule={answer.winner.rule} />
              <Typography.Paragraph className="bo-floors-why" data-testid="floors-tester-why">
                <strong>{t('floors.tester.why')}:</strong> {why(answer.winner, answer.runners_up[0], t)}
              </Typography.Paragraph>
            </Card>
          ) : (
            <Alert
              type="info"
              showIcon
              data-testid="floors-tester-none"
              title={t('floors.tester.no_rule')}
              description={
                answer.fallback
                  ? t('floors.tester.fallback', {
                      floor: cpmText(answer.fallback.cpm, answer.fallback.currency, locale),
                    })
                  : t('floors.tester.no_fallback')
              }
            />
          )}
          {matches.length > 0 ? (
            <>
              <Typography.Title level={5} className="bo-floors-gap">
                {t('floors.tester.runners_up')}
              </Typography.Title>
              {answer.runners_up.length === 0 ? (
                <Typography.Text type="secondary">{t('floors.tester.none_other')}</Typography.Text>
              ) : null}
              <ScrollRegion label={t('floors.tester.runners_up')}>
                <Table<TestMatch>
                  size="small"
                  rowKey={(m) => String(m.rule.id)}
                  dataSource={matches}
                  pagination={false}
                  scroll={{ x: 'max-content' }}
                  rowClassName={(_, i) => (i === 0 ? 'bo-floors-row--winner' : '')}
                  data-testid="floors-tester-matches"
                  columns={[
                    { key: 'rank', title: '#', width: 40, render: (_: unknown, _m, i) => i + 1 },
                    {
                      key: 'cpm',
                      title: t('floors.cpm'),
                      align: 'right',
                      render: (_: unknown, m) => (
                        <strong>{cpmText(m.rule.cpm, m.rule.currency, locale)}</strong>
                      ),
                    },
                    {
                      key: 'specificity',
                      title: t('floors.specificity'),
                      align: 'right',
                      render: (_: unknown, m) => m.specificity,
                    },
                    ...FLOOR_KEYS.map(keyColumn),
                  ]}
                />
              </ScrollRegion>
            </>
          ) : null}
          <Typography.Paragraph type="secondary" className="bo-floors-gap">
            {t('floors.tester.rules_checked', {
              rules: answer.rules.toLocaleString(locale),
              version: answer.version,
            })}{' '}
            {t('floors.tester.priority')}
          </Typography.Paragraph>
        </div>
      ) : null}
    </div>
  );
}
