/**
 * The VAST builder's form (docs/decisions/038-vast-builder.md): the whole configuration, controlled
 * by the shared builder page (every change sends the whole new configuration; the page renders the
 * code). Fields that the chosen version or ad type cannot carry are hidden, not cleared, so
 * switching back restores them. Each field shows the first issue at its configuration path (the
 * builder's rules, and the XSD's findings the API places there).
 */
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import type { BuilderIssue } from '@backoffice/core/builders/common';
import {
  VAST_DELIVERIES,
  VAST_PRICING_MODELS,
  VAST_TRACKING_EVENTS,
  VAST_VERSIONS,
  emptyCreative,
  emptyMediaFile,
  emptyVerification,
  type VastConfig,
  type VastCreative,
} from '@backoffice/core/builders/vast';
import { Alert, Button, Card, Col, Form, Input, InputNumber, Radio, Row, Select, Switch, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { BuilderField as Field, BuilderSection as Section } from '../../components/builders/builder-fields.tsx';
import { fieldDomId, issueText } from '../../components/builders/field-issue.ts';
import type { BuilderFormProps } from '../../components/builders/types.ts';

const QUARTILES = ['start', 'firstQuartile', 'midpoint', 'thirdQuartile', 'complete'] as const;

/** The issues at exactly this path (a list's own message: "add a media file"), as an alert. */
function ListIssue({ path, issues }: { path: string; issues: readonly BuilderIssue[] }) {
  const here = issues.filter((i) => i.path === path);
  if (here.length === 0) return null;
  return (
    <div id={fieldDomId(path)} tabIndex={-1}>
      {here.map((i, n) => (
        <Alert key={n} type={i.severity} showIcon title={issueText(i)} className="bo-vast-list-issue" />
      ))}
    </div>
  );
}

function RemoveButton({ label, onClick }: { label: string; onClick: () => void }) {
  return <Button type="text" danger icon={<DeleteOutlined />} aria-label={label} title={label} onClick={onClick} />;
}

type Tri = boolean | null;
const triValue = (v: Tri) => (v === null ? 'default' : v ? 'yes' : 'no');
const fromTri = (v: string): Tri => (v === 'default' ? null : v === 'yes');

export function VastForm({ value: c, onChange, issues }: BuilderFormProps<VastConfig>) {
  const { t } = useTranslation();
  const inline = c.ad_type === 'inline';
  const v4 = c.version !== '3.0';
  /** The next configuration from a copy changed by `change` (the page keeps the state). */
  const update = (change: (draft: VastConfig) => void) => {
    const next = structuredClone(c);
    change(next);
    onChange(next);
  };
  const text = (path: string, get: (d: VastConfig) => string, set: (d: VastConfig, v: string) => void, props: { placeholder?: string; inputMode?: 'url' | 'text' | 'decimal' } = {}) => (
    <Input
      id={fieldDomId(path)}
      value={get(c)}
      onChange={(e) => update((d) => set(d, e.target.value))}
      placeholder={props.placeholder}
      inputMode={props.inputMode}
      type={props.inputMode === 'url' ? 'url' : 'text'}
      autoComplete="off"
      spellCheck={false}
    />
  );
  const count = (path: string, get: (d: VastConfig) => number | null, set: (d: VastConfig, v: number | null) => void, min = 1) => (
    <InputNumber
      id={fieldDomId(path)}
      value={get(c)}
      min={min}
      precision={0}
      style={{ width: '100%' }}
      onChange={(n) => update((d) => set(d, typeof n === 'number' && Number.isFinite(n) ? n : null))}
    />
  );

  return (
    <Form layout="vertical" component="div" className="bo-vast-form" data-testid="vast-form-fields">
      <Section title={t('vast.section.document')}>
        <Row gutter={16}>
          <Col xs={24} md={12}>
            <Field issues={issues} path="version" label={t('vast.field.version')} help={t('vast.field.version_help')}>
              <Radio.Group
                id={fieldDomId('version')}
                optionType="button"
                buttonStyle="solid"
                value={c.version}
                onChange={(e) => update((d) => void (d.version = e.target.value as VastConfig['version']))}
                options={VAST_VERSIONS.map((ver) => ({ value: ver, label: ver }))}
                aria-label={t('vast.field.version')}
                data-testid="vast-version"
              />
            </Field>
          </Col>
          <Col xs={24} md={12}>
            <Field issues={issues} path="ad_type" label={t('vast.field.ad_type')} help={inline ? t('vast.ad_type.inline_help') : t('vast.ad_type.wrapper_help')}>
              <Radio.Group
                id={fieldDomId('ad_type')}
                optionType="button"
                buttonStyle="solid"
                value={c.ad_type}
                onChange={(e) => update((d) => void (d.ad_type = e.target.value as VastConfig['ad_type']))}
                options={[
                  { value: 'inline', label: t('vast.ad_type.inline') },
                  { value: 'wrapper', label: t('vast.ad_type.wrapper') },
                ]}
                aria-label={t('vast.field.ad_type')}
                data-testid="vast-ad-type"
              />
            </Field>
          </Col>
          <Col xs={24} md={12}>
            <Field issues={issues} path="ad_id" label={t('vast.field.ad_id')}>
              {text(
                'ad_id',
                (d) => d.ad_id,
                (d, v) => (d.ad_id = v),
              )}
            </Field>
          </Col>
          <Col xs={24} md={12}>
            <Field issues={issues} path="sequence" label={t('vast.field.sequence')}>
              {count(
                'sequence',
                (d) => d.sequence,
                (d, v) => (d.sequence = v),
              )}
            </Field>
          </Col>
        </Row>
      </Section>

      <Section title={t('vast.section.ad')}>
        <Row gutter={16}>
          <Col xs={24} md={14}>
            <Field issues={issues} path="ad_system.name" label={t('vast.field.ad_system')} required>
              {text(
                'ad_system.name',
                (d) => d.ad_system.name,
                (d, v) => (d.ad_system.name = v),
              )}
            </Field>
          </Col>
          <Col xs={24} md={10}>
            <Field issues={issues} path="ad_system.version" label={t('vast.field.ad_system_version')}>
              {text(
                'ad_system.version',
                (d) => d.ad_system.version,
                (d, v) => (d.ad_system.version = v),
              )}
            </Field>
          </Col>
          {inline ? (
            <Col xs={24}>
              <Field issues={issues} path="ad_title" label={t('vast.field.ad_title')} required>
                {text(
                  'ad_title',
                  (d) => d.ad_title,
                  (d, v) => (d.ad_title = v),
                )}
              </Field>
            </Col>
          ) : null}
          {inline && v4 ? (
            <Col xs={24}>
              <Field issues={issues} path="ad_serving_id" label={t('vast.field.ad_serving_id')} help={t('vast.field.ad_serving_id_help')} required>
                {text(
                  'ad_serving_id',
                  (d) => d.ad_serving_id,
                  (d, v) => (d.ad_serving_id = v),
                )}
              </Field>
            </Col>
          ) : null}
        </Row>
      </Section>

      {!inline ? (
        <Section title={t('vast.section.wrapper')} testId="vast-section-wrapper">
          <Field issues={issues} path="wrapper.tag_uri" label={t('vast.field.tag_uri')} help={t('vast.field.tag_uri_help')} required>
            {text(
              'wrapper.tag_uri',
              (d) => d.wrapper.tag_uri,
              (d, v) => (d.wrapper.tag_uri = v),
              { inputMode: 'url', placeholder: 'https://' },
            )}
          </Field>
          {v4 ? (
            <Row gutter={16}>
              {(['follow_additional_wrappers', 'allow_multiple_ads', 'fallback_on_no_ad'] as const).map((k) => (
                <Col xs={24} md={8} key={k}>
                  <Field issues={issues} path={`wrapper.${k}`} label={t(`vast.field.${k}`)}>
                    <Select
                      id={fieldDomId(`wrapper.${k}`)}
                      value={triValue(c.wrapper[k])}
                      onChange={(v: string) => update((d) => void (d.wrapper[k] = fromTri(v)))}
                      options={(['default', 'yes', 'no'] as const).map((o) => ({ value: o, label: t(`vast.tristate.${o}`) }))}
                    />
                  </Field>
                </Col>
              ))}
            </Row>
          ) : (
            <Typography.Paragraph type="secondary">{t('vast.field.wrapper_attributes_30')}</Typography.Paragraph>
          )}
          {!v4 ? (['follow_additional_wrappers', 'allow_multiple_ads', 'fallback_on_no_ad'] as const).map((k) => <ListIssue key={k} path={`wrapper.${k}`} issues={issues} />) : null}
        </Section>
      ) : null}

      <Section title={t('vast.section.tracking')}>
        <Typography.Text strong className="bo-vast-subtitle">
          {t('vast.field.impressions')}
        </Typography.Text>
        <ListIssue path="impressions" issues={issues} />
        {c.impressions.map((imp, i) => (
          <Row gutter={8} key={i} align="top" className="bo-vast-row">
            <Col xs={24} sm={6}>
              <Field issues={issues} path={`impressions.${i}.id`} label={t('vast.field.impression_id')}>
                {text(
                  `impressions.${i}.id`,
                  (d) => d.impressions[i]!.id,
                  (d, v) => (d.impressions[i]!.id = v),
                )}
              </Field>
            </Col>
            <Col xs={20} sm={16}>
              <Field issues={issues} path={`impressions.${i}.url`} label={t('vast.field.impression_url')} required>
                {text(
                  `impressions.${i}.url`,
                  (d) => d.impressions[i]!.url,
                  (d, v) => (d.impressions[i]!.url = v),
                  { inputMode: 'url', placeholder: 'https://' },
                )}
              </Field>
            </Col>
            <Col xs={4} sm={2} className="bo-vast-row__remove">
              <RemoveButton label={t('vast.remove_named', { name: `${t('vast.field.impression_url')} ${i + 1}` })} onClick={() => update((d) => void d.impressions.splice(i, 1))} />
            </Col>
          </Row>
        ))}
        <Button icon={<PlusOutlined />} onClick={() => update((d) => void d.impressions.push({ id: '', url: '' }))} className="bo-vast-add" data-testid="vast-add-impression">
          {t('vast.add.impression')}
        </Button>

        <Typography.Text strong className="bo-vast-subtitle">
          {t('vast.field.error_urls')}
        </Typography.Text>
        <Typography.Paragraph type="secondary" className="bo-vast-hint">
          {t('vast.field.error_urls_help')}
        </Typography.Paragraph>
        {c.error_urls.map((_, i) => (
          <Row gutter={8} key={i} align="top" className="bo-vast-row">
            <Col xs={20} sm={22}>
              <Field issues={issues} path={`error_urls.${i}`} label={t('vast.field.error_url')}>
                {text(
                  `error_urls.${i}`,
                  (d) => d.error_urls[i]!,
                  (d, v) => (d.error_urls[i] = v),
                  { inputMode: 'url', placeholder: 'https://' },
                )}
              </Field>
            </Col>
            <Col xs={4} sm={2} className="bo-vast-row__remove">
              <RemoveButton label={t('vast.remove_named', { name: `${t('vast.field.error_url')} ${i + 1}` })} onClick={() => update((d) => void d.error_urls.splice(i, 1))} />
            </Col>
          </Row>
        ))}
        <Button icon={<PlusOutlined />} onClick={() => update((d) => void d.error_urls.push(''))} className="bo-vast-add">
          {t('vast.add.error_url')}
        </Button>
      </Section>

      <Section title={t('vast.section.pricing')}>
        <Field issues={issues} path="pricing" label={t('vast.field.pricing_on')}>
          <Switch
            id={fieldDomId('pricing')}
            checked={c.pricing !== null}
            onChange={(on) => update((d) => void (d.pricing = on ? { model: 'CPM', currency: 'EUR', value: '' } : null))}
          />
        </Field>
        {c.pricing ? (
          <Row gutter={16}>
            <Col xs={24} sm={8}>
              <Field issues={issues} path="pricing.model" label={t('vast.field.pricing_model')}>
                <Select
                  id={fieldDomId('pricing.model')}
                  value={c.pricing.model}
                  onChange={(m: (typeof VAST_PRICING_MODELS)[number]) => update((d) => void (d.pricing!.model = m))}
                  options={VAST_PRICING_MODELS.map((m) => ({ value: m, label: m }))}
                />
              </Field>
            </Col>
            <Col xs={12} sm={8}>
              <Field issues={issues} path="pricing.currency" label={t('vast.field.pricing_currency')} required>
                <Input
                  id={fieldDomId('pricing.currency')}
                  value={c.pricing.currency}
                  maxLength={3}
                  autoComplete="off"
                  onChange={(e) => update((d) => void (d.pricing!.currency = e.target.value.toUpperCase()))}
                />
              </Field>
            </Col>
            <Col xs={12} sm={8}>
              <Field issues={issues} path="pricing.value" label={t('vast.field.pricing_value')} required>
                {text(
                  'pricing.value',
                  (d) => d.pricing?.value ?? '',
                  (d, v) => (d.pricing!.value = v),
                  { inputMode: 'decimal', placeholder: '12.50' },
                )}
              </Field>
            </Col>
          </Row>
        ) : null}
      </Section>

      <Section title={t('vast.section.verifications')}>
        {!v4 ? <Alert type="info" showIcon title={t('vast.field.verifications_30')} className="bo-vast-list-issue" /> : null}
        {c.verifications.map((ver, i) => {
          const p = `verifications.${i}`;
          const name = t('vast.verification', { number: i + 1 });
          return (
            <Card
              key={i}
              size="small"
              className="bo-vast-card"
              title={<h4 className="bo-vast-card__title">{name}</h4>}
              extra={<RemoveButton label={t('vast.remove_named', { name })} onClick={() => update((d) => void d.verifications.splice(i, 1))} />}
            >
              <Row gutter={16}>
                <Col xs={24} md={12}>
                  <Field issues={issues} path={`${p}.vendor`} label={t('vast.field.vendor')} help={t('vast.field.vendor_help')} required>
                    {text(
                      `${p}.vendor`,
                      (d) => d.verifications[i]!.vendor,
                      (d, v) => (d.verifications[i]!.vendor = v),
                    )}
                  </Field>
                </Col>
                <Col xs={24} md={12}>
                  <Field issues={issues} path={`${p}.api_framework`} label={t('vast.field.api_framework')} required>
                    {text(
                      `${p}.api_framework`,
                      (d) => d.verifications[i]!.api_framework,
                      (d, v) => (d.verifications[i]!.api_framework = v),
                    )}
                  </Field>
                </Col>
                <Col xs={24}>
                  <Field issues={issues} path={`${p}.js_url`} label={t('vast.field.js_url')} required>
                    {text(
                      `${p}.js_url`,
                      (d) => d.verifications[i]!.js_url,
                      (d, v) => (d.verifications[i]!.js_url = v),
                      { inputMode: 'url', placeholder: 'https://' },
                    )}
                  </Field>
                </Col>
                <Col xs={24}>
                  <Field issues={issues} path={`${p}.browser_optional`} label={t('vast.field.browser_optional')}>
                    <Switch id={fieldDomId(`${p}.browser_optional`)} checked={ver.browser_optional} onChange={(on) => update((d) => void (d.verifications[i]!.browser_optional = on))} />
                  </Field>
                </Col>
                <Col xs={24}>
                  <Field issues={issues} path={`${p}.parameters`} label={t('vast.field.parameters')}>
                    <Input.TextArea
                      id={fieldDomId(`${p}.parameters`)}
                      value={ver.parameters}
                      autoSize={{ minRows: 2, maxRows: 6 }}
                      spellCheck={false}
                      onChange={(e) => update((d) => void (d.verifications[i]!.parameters = e.target.value))}
                    />
                  </Field>
                </Col>
                <Col xs={24}>
                  <Field issues={issues} path={`${p}.not_executed_url`} label={t('vast.field.not_executed_url')} help={t('vast.field.not_executed_url_help')}>
                    {text(
                      `${p}.not_executed_url`,
                      (d) => d.verifications[i]!.not_executed_url,
                      (d, v) => (d.verifications[i]!.not_executed_url = v),
                      { inputMode: 'url', placeholder: 'https://' },
                    )}
                  </Field>
                </Col>
              </Row>
            </Card>
          );
        })}
        <Button icon={<PlusOutlined />} onClick={() => update((d) => void d.verifications.push(emptyVerification()))} className="bo-vast-add">
          {t('vast.add.verification')}
        </Button>
      </Section>

      <Section title={t('vast.section.creatives')}>
        <ListIssue path="creatives" issues={issues} />
        {c.creatives.map((cr, ci) => (
          <CreativeCard key={ci} config={c} creative={cr} index={ci} issues={issues} update={update} />
        ))}
        <Button icon={<PlusOutlined />} onClick={() => update((d) => void d.creatives.push(emptyCreative()))} className="bo-vast-add">
          {t('vast.add.creative')}
        </Button>
      </Section>
    </Form>
  );
}

interface CreativeCardProps {
  config: VastConfig;
  creative: VastCreative;
  index: number;
  issues: readonly BuilderIssue[];
  update: (change: (draft: VastConfig) => void) => void;
}

function CreativeCard({ config: c, creative: cr, index: ci, issues, update }: CreativeCardProps) {
  const { t } = useTranslation();
  const inline = c.ad_type === 'inline';
  const v4 = c.version !== '3.0';
  const p = `creatives.${ci}`;
  const lin = cr.linear;
  const events = VAST_TRACKING_EVENTS[c.version];
  const input = (path: string, value: string, set: (d: VastCreative, v: string) => void, props: { url?: boolean; placeholder?: string } = {}) => (
    <Input
      id={fieldDomId(path)}
      value={value}
      type={props.url ? 'url' : 'text'}
      inputMode={props.url ? 'url' : 'text'}
      placeholder={props.placeholder ?? (props.url ? 'https://' : undefined)}
      autoComplete="off"
      spellCheck={false}
      onChange={(e) => update((d) => set(d.creatives[ci]!, e.target.value))}
    />
  );
  const number = (path: string, value: number | null, set: (d: VastCreative, v: number | null) => void, min = 1) => (
    <InputNumber
      id={fieldDomId(path)}
      value={value}
      min={min}
      precision={0}
      style={{ width: '100%' }}
      onChange={(n) => update((d) => set(d.creatives[ci]!, typeof n === 'number' && Number.isFinite(n) ? n : null))}
    />
  );
  const title = t('vast.field.creative', { number: ci + 1 });

  return (
    <Card
      size="small"
      className="bo-vast-card"
      title={<h4 className="bo-vast-card__title">{title}</h4>}
      extra={<RemoveButton label={t('vast.remove_named', { name: title })} onClick={() => update((d) => void d.creatives.splice(ci, 1))} />}
      data-testid={`vast-creative-${ci}`}
    >
      <Row gutter={16}>
        <Col xs={24} sm={8}>
          <Field issues={issues} path={`${p}.id`} label={t('vast.field.creative_id')}>
            {input(`${p}.id`, cr.id, (d, v) => (d.id = v))}
          </Field>
        </Col>
        <Col xs={12} sm={8}>
          <Field issues={issues} path={`${p}.sequence`} label={t('vast.field.creative_sequence')}>
            {number(`${p}.sequence`, cr.sequence, (d, v) => (d.sequence = v))}
          </Field>
        </Col>
        <Col xs={12} sm={8}>
          <Field issues={issues} path={`${p}.ad_id`} label={t('vast.field.creative_ad_id')}>
            {input(`${p}.ad_id`, cr.ad_id, (d, v) => (d.ad_id = v))}
          </Field>
        </Col>
        {inline && v4 ? (
          <>
            <Col xs={24} sm={12}>
              <Field issues={issues} path={`${p}.universal_ad_id.registry`} label={t('vast.field.universal_ad_id_registry')} help={t('vast.field.universal_ad_id_help')} required>
                {input(`${p}.universal_ad_id.registry`, cr.universal_ad_id.registry, (d, v) => (d.universal_ad_id.registry = v))}
              </Field>
            </Col>
            <Col xs={24} sm={12}>
              <Field issues={issues} path={`${p}.universal_ad_id.value`} label={t('vast.field.universal_ad_id_value')} required>
                {input(`${p}.universal_ad_id.value`, cr.universal_ad_id.value, (d, v) => (d.universal_ad_id.value = v))}
              </Field>
            </Col>
          </>
        ) : null}
        {inline ? (
          <>
            <Col xs={12}>
              <Field issues={issues} path={`${p}.linear.duration`} label={t('vast.field.duration')} help={t('vast.field.duration_help')} required>
                {input(`${p}.linear.duration`, lin.duration, (d, v) => (d.linear.duration = v), { placeholder: '00:00:30' })}
              </Field>
            </Col>
            <Col xs={12}>
              <Field issues={issues} path={`${p}.linear.skipoffset`} label={t('vast.field.skipoffset')} help={t('vast.field.skipoffset_help')}>
                {input(`${p}.linear.skipoffset`, lin.skipoffset, (d, v) => (d.linear.skipoffset = v), { placeholder: '00:00:05' })}
              </Field>
            </Col>
          </>
        ) : null}
      </Row>

      {inline ? (
        <div className="bo-vast-sublist" data-testid={`vast-media-files-${ci}`}>
          <Typography.Text strong className="bo-vast-subtitle">
            {t('vast.field.media_files')}
          </Typography.Text>
          <ListIssue path={`${p}.linear.media_files`} issues={issues} />
          {lin.media_files.map((mf, mi) => {
            const mp = `${p}.linear.media_files.${mi}`;
            const name = t('vast.field.media_file', { number: mi + 1 });
            return (
              <div key={mi} role="group" aria-labelledby={`${fieldDomId(mp)}-title`} className="bo-vast-fieldset">
                <div className="bo-vast-fieldset__legend">
                  <span id={`${fieldDomId(mp)}-title`}>{name}</span>
                  <RemoveButton label={t('vast.remove_named', { name })} onClick={() => update((d) => void d.creatives[ci]!.linear.media_files.splice(mi, 1))} />
                </div>
                <Row gutter={8}>
                  <Col xs={24}>
                    <Field issues={issues} path={`${mp}.url`} label={t('vast.field.media_url')} required>
                      {input(`${mp}.url`, mf.url, (d, v) => (d.linear.media_files[mi]!.url = v), { url: true })}
                    </Field>
                  </Col>
                  <Col xs={12} sm={8}>
                    <Field issues={issues} path={`${mp}.type`} label={t('vast.field.mime')} required>
                      <Select
                        id={fieldDomId(`${mp}.type`)}
                        value={mf.type}
                        showSearch
                        onChange={(v: string) => update((d) => void (d.creatives[ci]!.linear.media_files[mi]!.type = v))}
                        options={[...new Set(['video/mp4', 'video/webm', 'video/ogg', 'video/3gpp', 'application/x-mpegURL', 'application/dash+xml', 'application/javascript', mf.type])]
                          .filter((o) => o !== '')
                          .map((o) => ({ value: o, label: o }))}
                      />
                    </Field>
                  </Col>
                  <Col xs={12} sm={8}>
                    <Field issues={issues} path={`${mp}.delivery`} label={t('vast.field.delivery')}>
                      <Select
                        id={fieldDomId(`${mp}.delivery`)}
                        value={mf.delivery}
                        onChange={(v: (typeof VAST_DELIVERIES)[number]) => update((d) => void (d.creatives[ci]!.linear.media_files[mi]!.delivery = v))}
                        options={VAST_DELIVERIES.map((o) => ({ value: o, label: t(`vast.delivery.${o}`) }))}
                      />
                    </Field>
                  </Col>
                  <Col xs={12} sm={8}>
                    <Field issues={issues} path={`${mp}.codec`} label={t('vast.field.codec')}>
                      {input(`${mp}.codec`, mf.codec, (d, v) => (d.linear.media_files[mi]!.codec = v))}
                    </Field>
                  </Col>
                  <Col xs={12} sm={8}>
                    <Field issues={issues} path={`${mp}.width`} label={t('vast.field.width')} required>
                      {number(`${mp}.width`, mf.width, (d, v) => (d.linear.media_files[mi]!.width = v))}
                    </Field>
                  </Col>
                  <Col xs={12} sm={8}>
                    <Field issues={issues} path={`${mp}.height`} label={t('vast.field.height')} required>
                      {number(`${mp}.height`, mf.height, (d, v) => (d.linear.media_files[mi]!.height = v))}
                    </Field>
                  </Col>
                  <Col xs={12} sm={8}>
                    <Field issues={issues} path={`${mp}.bitrate`} label={t('vast.field.bitrate')}>
                      {number(`${mp}.bitrate`, mf.bitrate, (d, v) => (d.linear.media_files[mi]!.bitrate = v))}
                    </Field>
                  </Col>
                </Row>
              </div>
            );
          })}
          <Button icon={<PlusOutlined />} onClick={() => update((d) => void d.creatives[ci]!.linear.media_files.push(emptyMediaFile()))} className="bo-vast-add" data-testid={`vast-add-media-${ci}`}>
            {t('vast.add.media_file')}
          </Button>
        </div>
      ) : null}

      <div className="bo-vast-sublist" data-testid={`vast-tracking-${ci}`}>
        <Typography.Text strong className="bo-vast-subtitle">
          {t('vast.field.tracking')}
        </Typography.Text>
        {lin.tracking.map((tr, ti) => {
          const tp = `${p}.linear.tracking.${ti}`;
          const showOffset = tr.event === 'progress' || tr.offset !== '';
          const name = `${t('vast.field.event')} ${ti + 1}`;
          return (
            <Row gutter={8} key={ti} align="top" className="bo-vast-row">
              <Col xs={24} sm={showOffset ? 7 : 8}>
                <Field issues={issues} path={`${tp}.event`} label={t('vast.field.event')} required>
                  <Select
                    id={fieldDomId(`${tp}.event`)}
                    value={tr.event === '' ? undefined : tr.event}
                    showSearch
                    onChange={(v: string) => update((d) => void (d.creatives[ci]!.linear.tracking[ti]!.event = v))}
                    options={[...new Set([...events, ...(tr.event ? [tr.event] : [])])].map((e) => ({ value: e, label: e }))}
                  />
                </Field>
              </Col>
              <Col xs={showOffset ? 14 : 20} sm={showOffset ? 10 : 14}>
                <Field issues={issues} path={`${tp}.url`} label={t('vast.field.tracking_url')} required>
                  {input(`${tp}.url`, tr.url, (d, v) => (d.linear.tracking[ti]!.url = v), { url: true })}
                </Field>
              </Col>
              {showOffset ? (
                <Col xs={6} sm={5}>
                  <Field issues={issues} path={`${tp}.offset`} label={t('vast.field.offset')}>
                    {input(`${tp}.offset`, tr.offset, (d, v) => (d.linear.tracking[ti]!.offset = v), { placeholder: '25%' })}
                  </Field>
                </Col>
              ) : null}
              <Col xs={4} sm={2} className="bo-vast-row__remove">
                <RemoveButton label={t('vast.remove_named', { name })} onClick={() => update((d) => void d.creatives[ci]!.linear.tracking.splice(ti, 1))} />
              </Col>
            </Row>
          );
        })}
        <div className="bo-vast-actions">
          <Button icon={<PlusOutlined />} onClick={() => update((d) => void d.creatives[ci]!.linear.tracking.push({ event: 'start', url: '', offset: '' }))} className="bo-vast-add">
            {t('vast.add.tracking')}
          </Button>
          <Button
            icon={<PlusOutlined />}
            onClick={() =>
              update((d) => {
                const have = new Set(d.creatives[ci]!.linear.tracking.map((x) => x.event));
                for (const event of QUARTILES) if (!have.has(event)) d.creatives[ci]!.linear.tracking.push({ event, url: '', offset: '' });
              })
            }
            className="bo-vast-add"
          >
            {t('vast.add.quartiles')}
          </Button>
        </div>
      </div>

      <div className="bo-vast-sublist">
        {inline ? (
          <Field issues={issues} path={`${p}.linear.click_through`} label={t('vast.field.click_through')}>
            {input(`${p}.linear.click_through`, lin.click_through, (d, v) => (d.linear.click_through = v), { url: true })}
          </Field>
        ) : null}
        <Typography.Text strong className="bo-vast-subtitle">
          {t('vast.field.click_tracking')}
        </Typography.Text>
        {lin.click_tracking.map((ct, i) => {
          const cp = `${p}.linear.click_tracking.${i}`;
          return (
            <Row gutter={8} key={i} align="top" className="bo-vast-row">
              <Col xs={24} sm={6}>
                <Field issues={issues} path={`${cp}.id`} label={t('vast.field.click_tracking_id')}>
                  {input(`${cp}.id`, ct.id, (d, v) => (d.linear.click_tracking[i]!.id = v))}
                </Field>
              </Col>
              <Col xs={20} sm={16}>
                <Field issues={issues} path={`${cp}.url`} label={t('vast.field.click_tracking_url')} required>
                  {input(`${cp}.url`, ct.url, (d, v) => (d.linear.click_tracking[i]!.url = v), { url: true })}
                </Field>
              </Col>
              <Col xs={4} sm={2} className="bo-vast-row__remove">
                <RemoveButton
                  label={t('vast.remove_named', { name: `${t('vast.field.click_tracking_url')} ${i + 1}` })}
                  onClick={() => update((d) => void d.creatives[ci]!.linear.click_tracking.splice(i, 1))}
                />
              </Col>
            </Row>
          );
        })}
        <Button icon={<PlusOutlined />} onClick={() => update((d) => void d.creatives[ci]!.linear.click_tracking.push({ id: '', url: '' }))} className="bo-vast-add">
          {t('vast.add.click_tracking')}
        </Button>
      </div>
    </Card>
  );
}
