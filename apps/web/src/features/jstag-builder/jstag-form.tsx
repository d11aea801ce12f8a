/**
 * The JS tag builder's form (decision 040): the whole configuration, controlled by the shared
 * builder page (each change sends the whole new configuration; the page renders the code). Fields
 * the chosen tag type does not use are hidden, not cleared. Each field shows the first issue at
 * its configuration path (core's rules, the same keys the API answers).
 */
import { AimOutlined } from '@ant-design/icons';
import { CURRENCIES } from '@backoffice/core/resources/companies';
import { JSTAG_TYPES, PASSBACK_TYPES, type JsTagConfig, type JsTagType, type PassbackType } from '@backoffice/core/builders/jstag';
import { AutoComplete, Button, Col, Form, Input, Radio, Row, Select, Space, Switch, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { fieldDomId } from '../../components/builders/field-issue.ts';
import type { BuilderFormProps } from '../../components/builders/types.ts';
import { BuilderField as TagField, BuilderSection as TagSection } from '../../components/builders/builder-fields.tsx';
import { adUnitCodeOf, ConsentFields } from '../../components/builders/tag-fields.tsx';

/** IAB standard display sizes offered in the sizes list (others can be typed). */
const STANDARD_SIZES = ['300x250', '728x90', '320x50', '300x600', '970x250', '160x600', '320x100', '336x280', '970x90', '468x60', '300x50', '250x250'];
const CLICK_MACROS = ['%%CLICK_URL_UNESC%%', '%%CLICK_URL_ESC%%', '${CLICK_URL}', '{CLICK_URL}'];
const CACHEBUSTER_MACROS = ['%%CACHEBUSTER%%', '[CACHEBUSTING]', '${CACHEBUSTER}', '[timestamp]'];

export function JsTagForm({ value: c, onChange, issues, subject }: BuilderFormProps<JsTagConfig>) {
  const { t } = useTranslation();
  const set = <K extends keyof JsTagConfig>(key: K, v: JsTagConfig[K]) => onChange({ ...c, [key]: v });
  const scriptless = c.type !== 'async';
  const subjectCode = subject?.type === 'ad_unit' ? adUnitCodeOf(subject.name) : null;

  return (
    <Form layout="vertical" component="div" className="bo-tag-form" data-testid="jstag-form-fields">
      <TagSection title={t('jstag.section.tag')}>
        <TagField path="type" label={t('jstag.field.type')} issues={issues} help={t(`jstag.type.${c.type}_help`)}>
          <Radio.Group
            id={fieldDomId('type')}
            optionType="button"
            value={c.type}
            onChange={(e) => set('type', e.target.value as JsTagType)}
            options={JSTAG_TYPES.map((type) => ({ value: type, label: t(`jstag.type.${type}`) }))}
            data-testid="jstag-type"
          />
        </TagField>
        <TagField path="server_url" label={t('jstag.field.server_url')} help={t('jstag.field.server_url_help')} issues={issues}>
          <Input id={fieldDomId('server_url')} type="url" inputMode="url" value={c.server_url} onChange={(e) => set('server_url', e.target.value)} autoComplete="off" spellCheck={false} placeholder="https://ads.example.com" />
        </TagField>
      </TagSection>

      <TagSection title={t('jstag.section.request')}>
        <TagField path="ad_unit" label={t('jstag.field.ad_unit')} help={t('jstag.field.ad_unit_help')} issues={issues} required>
          <Space.Compact style={{ width: '100%' }}>
            <Input id={fieldDomId('ad_unit')} value={c.ad_unit} onChange={(e) => set('ad_unit', e.target.value)} autoComplete="off" spellCheck={false} data-testid="jstag-ad-unit" />
            {subjectCode && subjectCode !== c.ad_unit ? (
              <Button icon={<AimOutlined />} onClick={() => set('ad_unit', subjectCode)} data-testid="jstag-use-subject">
                {t('jstag.field.use_subject')}
              </Button>
            ) : null}
          </Space.Compact>
        </TagField>
        <TagField path="sizes" label={t('jstag.field.sizes')} help={t('jstag.field.sizes_help')} issues={issues} required>
          <Select
            id={fieldDomId('sizes')}
            mode="tags"
            value={c.sizes}
            tokenSeparators={[',', ' ']}
            options={STANDARD_SIZES.map((s) => ({ value: s, label: s }))}
            onChange={(sizes: string[]) => set('sizes', sizes.map((s) => s.trim().toLowerCase()).filter((s) => s !== ''))}
            data-testid="jstag-sizes"
          />
        </TagField>
        <Row gutter={12}>
          <Col xs={14} md={12}>
            <TagField path="floor" label={t('jstag.field.floor')} help={t('jstag.field.floor_help')} issues={issues}>
              <Input id={fieldDomId('floor')} inputMode="decimal" value={c.floor} onChange={(e) => set('floor', e.target.value)} autoComplete="off" placeholder="0.85" data-testid="jstag-floor" />
            </TagField>
          </Col>
          <Col xs={10} md={12}>
            <TagField path="currency" label={t('jstag.field.currency')} issues={issues}>
              <Select id={fieldDomId('currency')} value={c.currency} options={CURRENCIES.map((cur) => ({ value: cur, label: cur }))} onChange={(cur) => set('currency', cur)} />
            </TagField>
          </Col>
        </Row>
        {c.type !== 'image' ? (
          <Form.Item extra={t('jstag.field.image_fallback_help')}>
            <Space>
              <Switch id={fieldDomId('image_fallback')} checked={c.image_fallback} onChange={(on) => set('image_fallback', on)} />
              <label htmlFor={fieldDomId('image_fallback')}>{t('jstag.field.image_fallback')}</label>
            </Space>
          </Form.Item>
        ) : null}
      </TagSection>

      {c.type !== 'image' ? (
        <TagSection title={t('jstag.section.passback')}>
          <TagField path="passback_type" label={t('jstag.field.passback_type')} issues={issues}>
            <Radio.Group
              id={fieldDomId('passback_type')}
              value={c.passback_type}
              onChange={(e) => set('passback_type', e.target.value as PassbackType)}
              options={PASSBACK_TYPES.map((p) => ({ value: p, label: t(`jstag.passback.${p}`), disabled: p === 'html' && c.type === 'iframe' }))}
              data-testid="jstag-passback-type"
            />
          </TagField>
          {c.passback_type === 'url' ? (
            <TagField path="passback" label={t('jstag.field.passback_url')} issues={issues} required>
              <Input id={fieldDomId('passback')} type="url" inputMode="url" value={c.passback} onChange={(e) => set('passback', e.target.value)} autoComplete="off" spellCheck={false} placeholder="https://" />
            </TagField>
          ) : null}
          {c.passback_type === 'html' ? (
            <TagField path="passback" label={t('jstag.field.passback_html')} help={t('jstag.field.passback_html_help')} issues={issues} required>
              <Input.TextArea id={fieldDomId('passback')} value={c.passback} onChange={(e) => set('passback', e.target.value)} autoSize={{ minRows: 3, maxRows: 10 }} spellCheck={false} className="bo-tag-mono" data-testid="jstag-passback-html" />
            </TagField>
          ) : null}
        </TagSection>
      ) : null}

      <TagSection title={t('jstag.section.macros')}>
        <Row gutter={12}>
          <Col xs={24} md={scriptless ? 12 : 24}>
            <TagField path="click_macro" label={t('jstag.field.click_macro')} help={t('jstag.field.click_macro_help')} issues={issues}>
              <AutoComplete id={fieldDomId('click_macro')} value={c.click_macro} options={CLICK_MACROS.map((m) => ({ value: m }))} onChange={(v: string) => set('click_macro', v)} />
            </TagField>
          </Col>
          {scriptless ? (
            <Col xs={24} md={12}>
              <TagField path="cachebuster_macro" label={t('jstag.field.cachebuster')} help={t('jstag.field.cachebuster_help')} issues={issues}>
                <AutoComplete id={fieldDomId('cachebuster_macro')} value={c.cachebuster_macro} options={CACHEBUSTER_MACROS.map((m) => ({ value: m }))} onChange={(v: string) => set('cachebuster_macro', v)} />
              </TagField>
            </Col>
          ) : null}
        </Row>
      </TagSection>

      <ConsentFields value={c.consent} onChange={(consent) => set('consent', consent)} issues={issues} canAskCmp={c.type === 'async'} testId="jstag" />
      {scriptless ? <Typography.Paragraph type="secondary">{t('jstag.consent.cmp_async_only')}</Typography.Paragraph> : null}
    </Form>
  );
}
