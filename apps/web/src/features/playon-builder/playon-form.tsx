/**
 * The PlayOn builder's form (decision 040): placement (in-article after paragraph N, sticky corner,
 * in-banner), player size, VAST tag, autoplay, viewability, close and skip buttons, frequency cap,
 * colours and consent. Controlled by the shared builder page; fields the chosen placement does not
 * use are hidden, not cleared. Each field shows the first issue at its configuration path.
 */
import { AimOutlined } from '@ant-design/icons';
import {
  CLOSE_AFTER_MAX,
  FREQUENCY_CAP_MAX,
  PARAGRAPH_MAX,
  PLAYER_HEIGHT_MAX,
  PLAYER_HEIGHT_MIN,
  PLAYER_WIDTH_MAX,
  PLAYER_WIDTH_MIN,
  PLAYON_CORNERS,
  PLAYON_PLACEMENTS,
  SKIP_AFTER_MAX,
  type PlayOnConfig,
  type PlayOnPlacement,
} from '@backoffice/core/builders/playon';
import { Button, Col, Form, Input, InputNumber, Radio, Row, Select, Space, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { fieldDomId } from '../../components/builders/field-issue.ts';
import type { BuilderFormProps } from '../../components/builders/types.ts';
// The consent fieldset and field layout are the JS tag builder's: both embeds carry the same consent attributes.
import { adUnitCodeOf } from '../../components/builders/tag-fields.tsx';
import { BuilderField as TagField, BuilderSection as TagSection } from '../../components/builders/builder-fields.tsx';
import { ConsentFields } from '../../components/builders/tag-fields.tsx';

type Numeric = 'paragraph' | 'width' | 'height' | 'viewability_pct' | 'skip_after_sec';

export function PlayOnForm({ value: c, onChange, issues, subject }: BuilderFormProps<PlayOnConfig>) {
  const { t } = useTranslation();
  const set = <K extends keyof PlayOnConfig>(key: K, v: PlayOnConfig[K]) => onChange({ ...c, [key]: v });
  const subjectCode = subject?.type === 'ad_unit' ? adUnitCodeOf(subject.name) : null;
  const whole = (n: number | string | null) => (typeof n === 'number' && Number.isFinite(n) ? Math.trunc(n) : null);
  const number = (key: Numeric, min: number, max: number, testId?: string) => (
    <InputNumber id={fieldDomId(key)} value={c[key]} min={min} max={max} precision={0} style={{ width: '100%' }} onChange={(n) => set(key, whole(n) ?? min)} data-testid={testId} />
  );
  const color = (key: 'accent_color' | 'background_color') => (
    <Space.Compact style={{ width: '100%' }}>
      <input
        type="color"
        className="bo-playon-swatch"
        aria-label={t(`playon.field.${key}`)}
        value={/^#[0-9a-fA-F]{6}$/.test(c[key]) ? c[key] : '#000000'}
        onChange={(e) => set(key, e.target.value)}
      />
      <Input id={fieldDomId(key)} value={c[key]} onChange={(e) => set(key, e.target.value.trim())} maxLength={7} autoComplete="off" spellCheck={false} />
    </Space.Compact>
  );

  return (
    <Form layout="vertical" component="div" className="bo-tag-form" data-testid="playon-form-fields">
      <TagSection title={t('playon.section.placement')}>
        <TagField path="placement" label={t('playon.field.placement')} help={t(`playon.placement.${c.placement}_help`)} issues={issues}>
          <Radio.Group
            id={fieldDomId('placement')}
            optionType="button"
            value={c.placement}
            onChange={(e) => set('placement', e.target.value as PlayOnPlacement)}
            options={PLAYON_PLACEMENTS.map((p) => ({ value: p, label: t(`playon.placement.${p}`) }))}
            data-testid="playon-placement"
          />
        </TagField>
        {c.placement === 'in_article' ? (
          <TagField path="paragraph" label={t('playon.field.paragraph')} issues={issues}>
            {number('paragraph', 1, PARAGRAPH_MAX, 'playon-paragraph')}
          </TagField>
        ) : null}
        {c.placement === 'sticky' ? (
          <TagField path="corner" label={t('playon.field.corner')} issues={issues}>
            <Select id={fieldDomId('corner')} value={c.corner} options={PLAYON_CORNERS.map((k) => ({ value: k, label: t(`playon.corner.${k}`) }))} onChange={(k) => set('corner', k)} />
          </TagField>
        ) : null}
        <Row gutter={12}>
          <Col span={12}>
            <TagField path="width" label={t('playon.field.width')} issues={issues}>
              {number('width', PLAYER_WIDTH_MIN, PLAYER_WIDTH_MAX)}
            </TagField>
          </Col>
          <Col span={12}>
            <TagField path="height" label={t('playon.field.height')} issues={issues}>
              {number('height', PLAYER_HEIGHT_MIN, PLAYER_HEIGHT_MAX)}
            </TagField>
          </Col>
        </Row>
        <TagField path="server_url" label={t('playon.field.server_url')} help={t('playon.field.server_url_help')} issues={issues}>
          <Input id={fieldDomId('server_url')} type="url" inputMode="url" value={c.server_url} onChange={(e) => set('server_url', e.target.value)} autoComplete="off" spellCheck={false} placeholder="https://ads.example.com" />
        </TagField>
        <TagField path="ad_unit" label={t('playon.field.ad_unit')} issues={issues} required>
          <Space.Compact style={{ width: '100%' }}>
            <Input id={fieldDomId('ad_unit')} value={c.ad_unit} onChange={(e) => set('ad_unit', e.target.value)} autoComplete="off" spellCheck={false} data-testid="playon-ad-unit" />
            {subjectCode && subjectCode !== c.ad_unit ? (
              <Button icon={<AimOutlined />} onClick={() => set('ad_unit', subjectCode)}>
                {t('jstag.field.use_subject')}
              </Button>
            ) : null}
          </Space.Compact>
        </TagField>
      </TagSection>

      <TagSection title={t('playon.section.video')}>
        <TagField path="vast_url" label={t('playon.field.vast_url')} help={t('playon.field.vast_url_help')} issues={issues}>
          <Space.Compact style={{ width: '100%' }}>
            <Input id={fieldDomId('vast_url')} type="url" inputMode="url" value={c.vast_url} onChange={(e) => set('vast_url', e.target.value)} autoComplete="off" spellCheck={false} placeholder="https://" data-testid="playon-vast-url" />
            {c.vast_url !== '' ? <Button onClick={() => set('vast_url', '')}>{t('playon.field.vast_demo')}</Button> : null}
          </Space.Compact>
        </TagField>
        <Form.Item>
          <Space>
            <Switch id={fieldDomId('autoplay_muted')} checked={c.autoplay_muted} onChange={(on) => set('autoplay_muted', on)} />
            <label htmlFor={fieldDomId('autoplay_muted')}>{t('playon.field.autoplay_muted')}</label>
          </Space>
        </Form.Item>
        <TagField path="viewability_pct" label={t('playon.field.viewability_pct')} help={t('playon.field.viewability_help')} issues={issues}>
          {number('viewability_pct', 0, 100)}
        </TagField>
      </TagSection>

      <TagSection title={t('playon.section.behaviour')}>
        <Row gutter={12}>
          <Col xs={24} md={8}>
            <TagField path="close_after_sec" label={t('playon.field.close')} issues={issues}>
              <Space>
                <Switch aria-label={t('playon.field.close')} checked={c.close_after_sec !== null} onChange={(on) => set('close_after_sec', on ? 5 : null)} />
                {c.close_after_sec !== null ? (
                  <InputNumber
                    id={fieldDomId('close_after_sec')}
                    aria-label={t('playon.field.close_after_sec')}
                    value={c.close_after_sec}
                    min={0}
                    max={CLOSE_AFTER_MAX}
                    precision={0}
                    suffix="s"
                    onChange={(n) => set('close_after_sec', whole(n) ?? 0)}
                  />
                ) : null}
              </Space>
            </TagField>
          </Col>
          <Col xs={24} md={8}>
            <TagField path="skip_after_sec" label={t('playon.field.skippable')} issues={issues}>
              <Space>
                <Switch aria-label={t('playon.field.skippable')} checked={c.skippable} onChange={(on) => set('skippable', on)} />
                {c.skippable ? (
                  <InputNumber
                    id={fieldDomId('skip_after_sec')}
                    aria-label={t('playon.field.skip_after_sec')}
                    value={c.skip_after_sec}
                    min={0}
                    max={SKIP_AFTER_MAX}
                    precision={0}
                    suffix="s"
                    onChange={(n) => set('skip_after_sec', whole(n) ?? 0)}
                  />
                ) : null}
              </Space>
            </TagField>
          </Col>
          <Col xs={24} md={8}>
            <TagField path="frequency_cap" label={t('playon.field.frequency')} issues={issues}>
              <Space>
                <Switch aria-label={t('playon.field.frequency')} checked={c.frequency_cap !== null} onChange={(on) => set('frequency_cap', on ? 3 : null)} />
                {c.frequency_cap !== null ? (
                  <InputNumber
                    id={fieldDomId('frequency_cap')}
                    aria-label={t('playon.field.frequency_cap')}
                    value={c.frequency_cap}
                    min={1}
                    max={FREQUENCY_CAP_MAX}
                    precision={0}
                    onChange={(n) => set('frequency_cap', whole(n) ?? 1)}
                  />
                ) : null}
              </Space>
            </TagField>
          </Col>
        </Row>
      </TagSection>

      <TagSection title={t('playon.section.look')}>
        <Row gutter={12}>
          <Col xs={24} md={12}>
            <TagField path="accent_color" label={t('playon.field.accent_color')} help={t('playon.field.colors_help')} issues={issues}>
              {color('accent_color')}
            </TagField>
          </Col>
          <Col xs={24} md={12}>
            <TagField path="background_color" label={t('playon.field.background_color')} issues={issues}>
              {color('background_color')}
            </TagField>
          </Col>
        </Row>
      </TagSection>

      <ConsentFields value={c.consent} onChange={(consent) => set('consent', consent)} issues={issues} canAskCmp testId="playon" />
    </Form>
  );
}
