/**
 * The app tracking manager's form (docs/decisions/041-sdk-and-app-tracking.md): the chosen app
 * (details, app-ads.txt status and check), the app's platform, bundle, store id and, on iOS, the
 * tracking prompt's text; the campaign links (name, campaign id, base URL and query parameters, a
 * macro added with one click, the template and a resolved example shown as they change); and on
 * iOS the SKAdNetwork ids, pasted many at once. Controlled by the shared builder page.
 */
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { TRACKING_MACROS, TRACKING_MACRO_NAMES, resolvedExample, trackingTemplate, type AppTrackingConfig, type TrackingLink } from '@backoffice/core/builders/app-tracking';
import type { BuilderIssue } from '@backoffice/core/builders/common';
import { Button, Card, Col, Form, Input, Row, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { AppPanel } from '../../components/mobile-apps/app-panel.tsx';
import { AppSection } from '../../components/mobile-apps/app-section.tsx';
import { SkanListInput } from '../../components/mobile-apps/skan-list-input.tsx';
import { BuilderField as Field, BuilderSection as Section } from '../../components/builders/builder-fields.tsx';
import { fieldDomId, fieldIssue, issueText } from '../../components/builders/field-issue.ts';
import type { BuilderFormProps } from '../../components/builders/types.ts';
import './app-tracking.css';

const emptyLink = (n: number): TrackingLink => ({
  name: `Campaign link ${n}`,
  campaign_id: '',
  base_url: 'https://track.adtech.example/click',
  params: [{ key: 'click_id', value: '{click_id}' }],
});

export function AppTrackingForm({ value: c, onChange, issues, subject }: BuilderFormProps<AppTrackingConfig>) {
  const { t } = useTranslation();
  const appId = subject?.type === 'app' ? subject.id : null;
  const ios = c.platform === 'ios';
  // What the configuration says about its app: the panel compares it with the chosen app, the section edits it.
  const appOfConfig = { platform: c.platform, bundle: c.app_bundle, storeId: c.store_id };
  const update = (change: (draft: AppTrackingConfig) => void) => {
    const next = structuredClone(c);
    change(next);
    onChange(next);
  };

  return (
    <Form layout="vertical" component="div" className="bo-tracking-form" data-testid="tracking-form-fields">
      <AppPanel
        appId={appId}
        config={appOfConfig}
        onApply={(a) =>
          update((d) => {
            d.platform = a.platform;
            d.app_bundle = a.bundle;
            d.store_id = a.platform === 'android' ? a.store_id || a.bundle : a.store_id;
            // The prompt text is iOS's; an Android file has none.
            if (a.platform === 'android') d.att_usage_description = '';
          })
        }
        testId="tracking"
      />

      <AppSection
        title={t('app_tracking.section.app')}
        app={appOfConfig}
        issues={issues}
        paths={{ bundle: 'app_bundle', storeId: 'store_id' }}
        onPlatform={(platform) => update((d) => void (d.platform = platform))}
        onBundle={(v) => update((d) => void (d.app_bundle = v))}
        onStoreId={(v) => update((d) => void (d.store_id = v))}
        testId="tracking"
      >
        {ios || c.att_usage_description !== '' ? (
          <Col xs={24}>
            <Field issues={issues} path="att_usage_description" label={t('app_tracking.field.att_usage_description')} help={t('app_tracking.field.att_usage_description_help')}>
              <Input.TextArea
                id={fieldDomId('att_usage_description')}
                value={c.att_usage_description}
                onChange={(e) => update((d) => void (d.att_usage_description = e.target.value))}
                autoSize={{ minRows: 2, maxRows: 5 }}
              />
            </Field>
          </Col>
        ) : null}
      </AppSection>

      <Section title={t('app_tracking.section.links')} testId="tracking-links">
        {c.links.length === 0 ? <Typography.Paragraph type="secondary">{t('app_tracking.link.none')}</Typography.Paragraph> : null}
        {c.links.map((link, i) => (
          <LinkCard
            key={i}
            link={link}
            i={i}
            config={c}
            issues={issues}
            change={(fn) => update((d) => fn(d.links[i]!))}
            remove={() => update((d) => void d.links.splice(i, 1))}
          />
        ))}
        <Button icon={<PlusOutlined />} onClick={() => update((d) => void d.links.push(emptyLink(d.links.length + 1)))} data-testid="tracking-link-add">
          {t('app_tracking.link.add')}
        </Button>
      </Section>

      <Section title={t('app_tracking.skan.title')} testId="tracking-skan-section">
        {!ios ? <Typography.Paragraph type="secondary">{t('app_tracking.skan.android_note')}</Typography.Paragraph> : null}
        {ios || c.skadnetwork_ids.length > 0 ? (
          <SkanListInput
            value={c.skadnetwork_ids}
            onChange={(ids) => update((d) => void (d.skadnetwork_ids = ids))}
            path="skadnetwork_ids"
            issueAt={(path) => fieldIssue(issues, path)}
            domId={fieldDomId}
            testId="tracking"
          />
        ) : null}
      </Section>
    </Form>
  );
}

interface LinkCardProps {
  link: TrackingLink;
  i: number;
  config: AppTrackingConfig;
  issues: readonly BuilderIssue[];
  change: (fn: (l: TrackingLink) => void) => void;
  remove: () => void;
}

function LinkCard({ link, i, config, issues, change, remove }: LinkCardProps) {
  const { t } = useTranslation();
  const at = `links.${i}`;
  const n = i + 1;
  const macros = TRACKING_MACRO_NAMES.filter((m) => (TRACKING_MACROS[m].platforms as readonly string[]).includes(config.platform));
  const paramsIssue = issues.find((x) => x.path === `${at}.params`);
  return (
    <Card
      size="small"
      className="bo-tracking-link"
      data-testid="tracking-link"
      title={
        <span className="bo-tracking-link__title">
          {t('app_tracking.link.title', { n })}
          {link.name ? <Typography.Text type="secondary"> · {link.name}</Typography.Text> : null}
        </span>
      }
      extra={<Button type="text" danger icon={<DeleteOutlined />} aria-label={t('app_tracking.link.remove', { n })} title={t('app_tracking.link.remove', { n })} onClick={remove} />}
    >
      <Row gutter={12}>
        <Col xs={24} sm={12}>
          <Field issues={issues} path={`${at}.name`} label={t('app_tracking.link.name')} required>
            <Input id={fieldDomId(`${at}.name`)} value={link.name} onChange={(e) => change((l) => void (l.name = e.target.value))} autoComplete="off" />
          </Field>
        </Col>
        <Col xs={24} sm={12}>
          <Field issues={issues} path={`${at}.campaign_id`} label={t('app_tracking.link.campaign_id')}>
            <Input id={fieldDomId(`${at}.campaign_id`)} value={link.campaign_id} onChange={(e) => change((l) => void (l.campaign_id = e.target.value))} autoComplete="off" spellCheck={false} />
          </Field>
        </Col>
        <Col xs={24}>
          <Field issues={issues} path={`${at}.base_url`} label={t('app_tracking.link.base_url')} required>
            <Input
              id={fieldDomId(`${at}.base_url`)}
              value={link.base_url}
              type="url"
              inputMode="url"
              onChange={(e) => change((l) => void (l.base_url = e.target.value.trim()))}
              placeholder="https://track.adtech.example/click"
              autoComplete="off"
              spellCheck={false}
            />
          </Field>
        </Col>
      </Row>
      <Typography.Text strong>{t('app_tracking.link.params')}</Typography.Text>
      {link.params.map((p, j) => {
        const pat = `${at}.params.${j}`;
        return (
          <div className="bo-tracking-param" key={j} data-testid="tracking-param">
            <Form.Item {...fieldIssue(issues, `${pat}.key`)} className="bo-tracking-param__key">
              <Input
                id={fieldDomId(`${pat}.key`)}
                value={p.key}
                aria-label={`${t('app_tracking.param.key')} ${j + 1}`}
                placeholder={t('app_tracking.param.key')}
                onChange={(e) => change((l) => void (l.params[j]!.key = e.target.value))}
                autoComplete="off"
                spellCheck={false}
              />
            </Form.Item>
            <Form.Item {...fieldIssue(issues, `${pat}.value`)} className="bo-tracking-param__value">
              <Input
                id={fieldDomId(`${pat}.value`)}
                value={p.value}
                aria-label={`${t('app_tracking.param.value')} ${j + 1}`}
                placeholder={t('app_tracking.param.value')}
                onChange={(e) => change((l) => void (l.params[j]!.value = e.target.value))}
                autoComplete="off"
                spellCheck={false}
              />
            </Form.Item>
            <Button
              type="text"
              danger
              icon={<DeleteOutlined />}
              aria-label={t('app_tracking.param.remove', { key: p.key || j + 1 })}
              title={t('app_tracking.param.remove', { key: p.key || j + 1 })}
              onClick={() => change((l) => void l.params.splice(j, 1))}
            />
          </div>
        );
      })}
      {paramsIssue ? (
        <Typography.Paragraph type={paramsIssue.severity === 'error' ? 'danger' : 'warning'} id={fieldDomId(`${at}.params`)}>
          {issueText(paramsIssue)}
        </Typography.Paragraph>
      ) : null}
      <Space wrap size={6} className="bo-tracking-macros">
        <Button size="small" icon={<PlusOutlined />} onClick={() => change((l) => void l.params.push({ key: '', value: '' }))} data-testid="tracking-param-add">
          {t('app_tracking.param.add')}
        </Button>
        <Typography.Text type="secondary">{t('app_tracking.macros')}:</Typography.Text>
        {macros.map((m) => (
          <Button
            key={m}
            size="small"
            className="bo-tracking-macro"
            title={t(`app_tracking.macro.${m}`)}
            aria-label={`${t('app_tracking.param.add')}: {${m}}, ${t(`app_tracking.macro.${m}`)}`}
            onClick={() =>
              change((l) => {
                const used = new Set(l.params.map((p) => p.key));
                l.params.push({ key: used.has(m) ? `${m}_${l.params.length + 1}` : m, value: `{${m}}` });
              })
            }
          >
            {`{${m}}`}
          </Button>
        ))}
      </Space>
      <dl className="bo-tracking-urls">
        <dt>{t('app_tracking.link.template')}</dt>
        <dd>
          <Typography.Text code copyable className="bo-tracking-url" data-testid="tracking-template">
            {trackingTemplate(link)}
          </Typography.Text>
        </dd>
        <dt>{t('app_tracking.link.example')}</dt>
        <dd>
          <Typography.Text code copyable className="bo-tracking-url" data-testid="tracking-example">
            {resolvedExample(config, link)}
          </Typography.Text>
        </dd>
      </dl>
    </Card>
  );
}
