/**
 * The SDK builder's form (docs/decisions/041-sdk-and-app-tracking.md): the chosen app (its
 * details, app-ads.txt status and check), the app and SDK fields, the placements as an editable
 * list (format, banner sizes and refresh, floor, ad unit, reward, test mode), privacy defaults,
 * mediation, and on iOS the SKAdNetwork ids. Controlled by the shared builder page: every change
 * sends the whole new configuration; each field shows the first issue at its path.
 */
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import type { BuilderIssue } from '@backoffice/core/builders/common';
import {
  SDK_BANNER_SIZES,
  SDK_CONSENT_FRAMEWORKS,
  SDK_FLOOR_CURRENCIES,
  SDK_FORMATS,
  SDK_MEDIATION_NETWORKS,
  SDK_MEDIATION_NETWORK_NAMES,
  SDK_REFRESH_MAX,
  SDK_REFRESH_MIN,
  newSdkPlacement,
  withFormat,
  type SdkConfig,
  type SdkFormat,
  type SdkPlacement,
} from '@backoffice/core/builders/sdk';
import type { AppPlatform } from '@backoffice/core/builders/app-shared';
import { AutoComplete, Button, Card, Col, Form, Input, InputNumber, Row, Select, Switch, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { AppPanel } from '../../components/mobile-apps/app-panel.tsx';
import { AppSection } from '../../components/mobile-apps/app-section.tsx';
import { useSdkApp } from '../../components/mobile-apps/sdk-apps-api.ts';
import { SkanListInput } from '../../components/mobile-apps/skan-list-input.tsx';
import { BuilderField as Field, BuilderSection as Section } from '../../components/builders/builder-fields.tsx';
import { fieldDomId, fieldIssue, issueText } from '../../components/builders/field-issue.ts';
import type { BuilderFormProps } from '../../components/builders/types.ts';
import './sdk-builder.css';

/** The first `placement_<n>` id not in use. */
function freeId(placements: readonly SdkPlacement[]): string {
  const used = new Set(placements.map((p) => p.id));
  let n = placements.length + 1;
  while (used.has(`placement_${n}`)) n++;
  return `placement_${n}`;
}

export function SdkForm({ value: c, onChange, issues, subject }: BuilderFormProps<SdkConfig>) {
  const { t } = useTranslation();
  const appId = subject?.type === 'app' ? subject.id : null;
  const app = useSdkApp(appId);
  const adUnits = app.data?.id === appId ? (app.data?.ad_units ?? []) : [];
  const ios = c.platform === 'ios';
  // What the configuration says about its app: the panel compares it with the chosen app, the section edits it.
  const appOfConfig = { platform: c.platform, bundle: c.app.bundle, storeId: c.app.store_id };
  const update = (change: (draft: SdkConfig) => void) => {
    const next = structuredClone(c);
    change(next);
    onChange(next);
  };
  const setPlatform = (d: SdkConfig, platform: AppPlatform) => {
    d.platform = platform;
    // The ATT prompt is iOS's: an Android configuration never asks.
    if (platform === 'android') d.privacy.att_prompt = false;
  };
  const whole = (path: string, get: (d: SdkConfig) => number, set: (d: SdkConfig, v: number) => void, min: number, max: number, step = 100) => (
    <InputNumber
      id={fieldDomId(path)}
      value={get(c)}
      min={min}
      max={max}
      step={step}
      precision={0}
      style={{ width: '100%' }}
      onChange={(n) => typeof n === 'number' && Number.isFinite(n) && update((d) => set(d, n))}
    />
  );

  return (
    <Form layout="vertical" component="div" className="bo-sdk-form" data-testid="sdk-form-fields">
      <AppPanel
        appId={appId}
        config={appOfConfig}
        onApply={(a) =>
          update((d) => {
            setPlatform(d, a.platform);
            d.app.bundle = a.bundle;
            d.app.store_id = a.platform === 'android' ? a.store_id || a.bundle : a.store_id;
          })
        }
        testId="sdk"
      />

      <AppSection
        title={t('sdk.section.app')}
        app={appOfConfig}
        issues={issues}
        paths={{ bundle: 'app.bundle', storeId: 'app.store_id' }}
        onPlatform={(platform) => update((d) => setPlatform(d, platform))}
        onBundle={(v) => update((d) => void (d.app.bundle = v))}
        onStoreId={(v) => update((d) => void (d.app.store_id = v))}
        afterPlatform={
          <Col xs={24} md={12}>
            <Field issues={issues} path="sdk_version" label={t('sdk.field.sdk_version')} required>
              <Input
                id={fieldDomId('sdk_version')}
                value={c.sdk_version}
                onChange={(e) => update((d) => void (d.sdk_version = e.target.value))}
                placeholder="4.2.0"
                autoComplete="off"
                spellCheck={false}
              />
            </Field>
          </Col>
        }
        testId="sdk"
      >
        <Col xs={24} md={12}>
          <Field issues={issues} path="request_timeout_ms" label={t('sdk.field.request_timeout_ms')}>
            {whole(
              'request_timeout_ms',
              (d) => d.request_timeout_ms,
              (d, v) => (d.request_timeout_ms = v),
              0,
              60_000,
            )}
          </Field>
        </Col>
      </AppSection>

      <Section title={t('sdk.section.placements')} testId="sdk-placements">
        {issues
          .filter((i) => i.path === 'placements')
          .map((i, n) => (
            <Typography.Paragraph key={n} type={i.severity === 'error' ? 'danger' : 'warning'} id={n === 0 ? fieldDomId('placements') : undefined}>
              {issueText(i)}
            </Typography.Paragraph>
          ))}
        {c.placements.map((p, i) => (
          <PlacementCard
            key={i}
            p={p}
            i={i}
            issues={issues}
            adUnits={adUnits.map((u) => ({ value: u.name, label: `${u.name} (${u.format} ${u.size})` }))}
            change={(fn) => update((d) => fn(d.placements[i]!))}
            remove={() => update((d) => void d.placements.splice(i, 1))}
          />
        ))}
        <Button
          icon={<PlusOutlined />}
          onClick={() => update((d) => void d.placements.push({ ...newSdkPlacement('banner', d.placements.length + 1), id: freeId(d.placements) }))}
          data-testid="sdk-placement-add"
        >
          {t('sdk.placement.add')}
        </Button>
      </Section>

      <Section title={t('sdk.section.privacy')}>
        <Row gutter={16}>
          <Col xs={24} md={12}>
            <Field issues={issues} path="privacy.att_prompt" label={t('sdk.field.att_prompt')} help={t('sdk.field.att_prompt_help')}>
              <Switch id={fieldDomId('privacy.att_prompt')} checked={c.privacy.att_prompt} disabled={!ios && !c.privacy.att_prompt} onChange={(v) => update((d) => void (d.privacy.att_prompt = v))} />
            </Field>
          </Col>
          <Col xs={24} md={12}>
            <Field issues={issues} path="privacy.coppa" label={t('sdk.field.coppa')}>
              <Switch id={fieldDomId('privacy.coppa')} checked={c.privacy.coppa} onChange={(v) => update((d) => void (d.privacy.coppa = v))} />
            </Field>
          </Col>
          <Col xs={24} md={12}>
            <Field issues={issues} path="privacy.consent" label={t('sdk.field.consent')}>
              <Select
                id={fieldDomId('privacy.consent')}
                value={c.privacy.consent}
                onChange={(v: SdkConfig['privacy']['consent']) => update((d) => void (d.privacy.consent = v))}
                options={SDK_CONSENT_FRAMEWORKS.map((f) => ({ value: f, label: t(`sdk.consent.${f}`) }))}
              />
            </Field>
          </Col>
        </Row>
      </Section>

      <Section title={t('sdk.section.mediation')}>
        <Row gutter={16}>
          <Col xs={24} md={8}>
            <Field issues={issues} path="mediation.enabled" label={t('sdk.field.mediation_enabled')}>
              <Switch id={fieldDomId('mediation.enabled')} checked={c.mediation.enabled} onChange={(v) => update((d) => void (d.mediation.enabled = v))} />
            </Field>
          </Col>
          <Col xs={24} md={16}>
            <Field issues={issues} path="mediation.timeout_ms" label={t('sdk.field.mediation_timeout_ms')}>
              {whole(
                'mediation.timeout_ms',
                (d) => d.mediation.timeout_ms,
                (d, v) => (d.mediation.timeout_ms = v),
                0,
                120_000,
                500,
              )}
            </Field>
          </Col>
          <Col xs={24}>
            <Field issues={issues} path="mediation.networks" label={t('sdk.field.mediation_networks')}>
              <Select
                id={fieldDomId('mediation.networks')}
                mode="multiple"
                value={c.mediation.networks}
                disabled={!c.mediation.enabled && c.mediation.networks.length === 0}
                onChange={(v: SdkConfig['mediation']['networks']) => update((d) => void (d.mediation.networks = v))}
                options={SDK_MEDIATION_NETWORKS.map((n) => ({ value: n, label: SDK_MEDIATION_NETWORK_NAMES[n] }))}
              />
            </Field>
          </Col>
        </Row>
      </Section>

      <Section title={t('sdk.section.skan')} testId="sdk-skan-section">
        {ios ? (
          <Typography.Paragraph type="secondary">{t('sdk.skan.from_tracking')}</Typography.Paragraph>
        ) : (
          <Typography.Paragraph type="secondary">{t('sdk.skan.android_note')}</Typography.Paragraph>
        )}
        {ios || c.skadnetwork_ids.length > 0 ? (
          <SkanListInput
            value={c.skadnetwork_ids}
            onChange={(ids) => update((d) => void (d.skadnetwork_ids = ids))}
            path="skadnetwork_ids"
            issueAt={(path) => fieldIssue(issues, path)}
            domId={fieldDomId}
            testId="sdk"
          />
        ) : null}
      </Section>
    </Form>
  );
}

interface PlacementCardProps {
  p: SdkPlacement;
  i: number;
  issues: readonly BuilderIssue[];
  adUnits: { value: string; label: string }[];
  change: (fn: (p: SdkPlacement) => void) => void;
  remove: () => void;
}

function PlacementCard({ p, i, issues, adUnits, change, remove }: PlacementCardProps) {
  const { t } = useTranslation();
  const at = `placements.${i}`;
  const n = i + 1;
  const banner = p.format === 'banner';
  const input = (field: 'id' | 'name' | 'ad_unit_id', placeholder?: string) => (
    <Input
      id={fieldDomId(`${at}.${field}`)}
      value={p[field]}
      onChange={(e) => change((d) => void (d[field] = e.target.value))}
      placeholder={placeholder}
      autoComplete="off"
      spellCheck={false}
      data-testid={`sdk-placement-${field}`}
    />
  );
  return (
    <Card
      size="small"
      className="bo-sdk-placement"
      data-testid="sdk-placement"
      title={
        <span className="bo-sdk-placement__title">
          {t('sdk.placement.title', { n })}
          {p.name ? <Typography.Text type="secondary"> · {p.name}</Typography.Text> : null}
        </span>
      }
      extra={<Button type="text" danger icon={<DeleteOutlined />} aria-label={t('sdk.placement.remove', { n })} title={t('sdk.placement.remove', { n })} onClick={remove} data-testid="sdk-placement-remove" />}
    >
      <Row gutter={12}>
        <Col xs={24} sm={12}>
          <Field issues={issues} path={`${at}.id`} label={t('sdk.placement.id')} required>
            {input('id', 'home_banner')}
          </Field>
        </Col>
        <Col xs={24} sm={12}>
          <Field issues={issues} path={`${at}.name`} label={t('sdk.placement.name')} required>
            {input('name')}
          </Field>
        </Col>
        <Col xs={24} sm={12}>
          <Field issues={issues} path={`${at}.format`} label={t('sdk.placement.format')}>
            <Select
              id={fieldDomId(`${at}.format`)}
              value={p.format}
              onChange={(f: SdkFormat) => change((d) => Object.assign(d, withFormat(d, f)))}
              options={SDK_FORMATS.map((f) => ({ value: f, label: t(`sdk.format.${f}`) }))}
              data-testid="sdk-placement-format"
            />
          </Field>
        </Col>
        <Col xs={24} sm={12}>
          <Field issues={issues} path={`${at}.ad_unit_id`} label={t('sdk.placement.ad_unit')} help={t('sdk.placement.ad_unit_help')} required>
            <AutoComplete
              id={fieldDomId(`${at}.ad_unit_id`)}
              value={p.ad_unit_id}
              options={adUnits}
              onChange={(v: string) => change((d) => void (d.ad_unit_id = v))}
              filterOption={(input, option) => (option?.value ?? '').toLowerCase().includes(input.toLowerCase())}
              data-testid="sdk-placement-ad-unit"
            />
          </Field>
        </Col>
        {banner ? (
          <Col xs={24} sm={12}>
            <Field issues={issues} path={`${at}.sizes`} label={t('sdk.placement.sizes')} required>
              <Select
                id={fieldDomId(`${at}.sizes`)}
                mode="multiple"
                value={p.sizes}
                onChange={(v: string[]) => change((d) => void (d.sizes = v))}
                options={SDK_BANNER_SIZES.map((s) => ({ value: s, label: s }))}
              />
            </Field>
          </Col>
        ) : null}
        {banner || p.refresh_seconds !== null ? (
          <Col xs={24} sm={12}>
            <Field issues={issues} path={`${at}.refresh_seconds`} label={t('sdk.placement.refresh')}>
              <div className="bo-sdk-refresh">
                <Switch
                  checked={p.refresh_seconds !== null}
                  aria-label={t('sdk.placement.refresh_on')}
                  checkedChildren={t('sdk.placement.refresh_on')}
                  unCheckedChildren={t('sdk.placement.refresh_off')}
                  onChange={(on) => change((d) => void (d.refresh_seconds = on ? SDK_REFRESH_MIN : null))}
                />
                <InputNumber
                  id={fieldDomId(`${at}.refresh_seconds`)}
                  value={p.refresh_seconds}
                  disabled={p.refresh_seconds === null}
                  min={1}
                  max={3600}
                  precision={0}
                  placeholder={`${SDK_REFRESH_MIN}–${SDK_REFRESH_MAX}`}
                  onChange={(v) => typeof v === 'number' && Number.isFinite(v) && change((d) => void (d.refresh_seconds = v))}
                  data-testid="sdk-placement-refresh"
                />
              </div>
            </Field>
          </Col>
        ) : null}
        <Col xs={14} sm={6}>
          <Field issues={issues} path={`${at}.floor.amount`} label={t('sdk.placement.floor')}>
            <Input
              id={fieldDomId(`${at}.floor.amount`)}
              value={p.floor.amount}
              inputMode="decimal"
              onChange={(e) => change((d) => void (d.floor.amount = e.target.value.trim()))}
              autoComplete="off"
              data-testid="sdk-placement-floor"
            />
          </Field>
        </Col>
        <Col xs={10} sm={6}>
          <Field issues={issues} path={`${at}.floor.currency`} label={t('sdk.placement.currency')}>
            <Select
              id={fieldDomId(`${at}.floor.currency`)}
              value={p.floor.currency}
              onChange={(v: string) => change((d) => void (d.floor.currency = v))}
              options={SDK_FLOOR_CURRENCIES.map((cur) => ({ value: cur, label: cur }))}
            />
          </Field>
        </Col>
        {p.format === 'rewarded_video' || p.reward !== null ? (
          <>
            <Col xs={14} sm={12}>
              <Field issues={issues} path={`${at}.reward.name`} label={t('sdk.placement.reward_name')} required>
                <Input
                  id={fieldDomId(`${at}.reward.name`)}
                  value={p.reward?.name ?? ''}
                  onChange={(e) => change((d) => void (d.reward = { name: e.target.value, amount: d.reward?.amount ?? 1 }))}
                  autoComplete="off"
                />
              </Field>
            </Col>
            <Col xs={10} sm={12}>
              <Field issues={issues} path={`${at}.reward.amount`} label={t('sdk.placement.reward_amount')} required>
                <InputNumber
                  id={fieldDomId(`${at}.reward.amount`)}
                  value={p.reward?.amount ?? null}
                  min={0}
                  precision={0}
                  style={{ width: '100%' }}
                  onChange={(v) => typeof v === 'number' && Number.isFinite(v) && change((d) => void (d.reward = { name: d.reward?.name ?? '', amount: v }))}
                />
              </Field>
            </Col>
          </>
        ) : null}
        <Col xs={24} sm={12}>
          <Field issues={issues} path={`${at}.test_mode`} label={t('sdk.placement.test_mode')}>
            <Switch id={fieldDomId(`${at}.test_mode`)} checked={p.test_mode} onChange={(v) => change((d) => void (d.test_mode = v))} />
          </Field>
        </Col>
      </Row>
    </Card>
  );
}
