/**
 * Form pieces the JS tag and PlayOn builders share (decision 040): a labelled field that shows the
 * first issue at its configuration path, a titled section, and the consent fieldset (TCF 2, GPP,
 * US privacy: off, the ad server's macros or the page's CMP; the IAB vendor id; the CMP's wait).
 * The PlayOn builder's screen imports these from here: both builders write the same consent
 * attributes (core builders/jstag.ts consentAttributes).
 */
import { CONSENT_MODES, CONSENT_TIMEOUT_MAX_MS, VENDOR_ID_MAX, type ConsentConfig, type ConsentMode } from '@backoffice/core/builders/jstag';
import type { BuilderIssue } from '@backoffice/core/builders/common';
import { Col, InputNumber, Row, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { BuilderField, BuilderSection } from './builder-fields.tsx';
import { fieldDomId } from './field-issue.ts';

interface ConsentFieldsProps {
  value: ConsentConfig;
  onChange: (next: ConsentConfig) => void;
  issues: readonly BuilderIssue[];
  /** Whether the tag can run script (ask the CMP): not for the iframe and image tags. */
  canAskCmp: boolean;
  testId: string;
}

const FRAMEWORKS = ['tcf', 'gpp', 'us_privacy'] as const;

export function ConsentFields({ value, onChange, issues, canAskCmp, testId }: ConsentFieldsProps) {
  const { t } = useTranslation();
  const usesMacros = value.tcf === 'macro' || value.gpp === 'macro';
  const asksCmp = value.tcf === 'cmp' || value.gpp === 'cmp' || value.us_privacy === 'cmp';
  const options = (mode: ConsentMode) => ({
    value: mode,
    label: t(`jstag.consent.mode.${mode}`),
    disabled: mode === 'cmp' && !canAskCmp,
    title: mode === 'cmp' && !canAskCmp ? t('jstag.consent.cmp_async_only') : undefined,
  });
  return (
    <BuilderSection title={t('jstag.section.consent')} testId={`${testId}-consent`}>
      <Row gutter={12}>
        {FRAMEWORKS.map((f) => (
          <Col key={f} xs={24} md={8}>
            <BuilderField path={`consent.${f}`} label={t(`jstag.consent.${f}`)} issues={issues}>
              <Select
                id={fieldDomId(`consent.${f}`)}
                value={value[f]}
                options={CONSENT_MODES.map(options)}
                onChange={(mode: ConsentMode) => onChange({ ...value, [f]: mode })}
                data-testid={`${testId}-consent-${f}`}
              />
            </BuilderField>
          </Col>
        ))}
      </Row>
      <Row gutter={12}>
        <Col xs={24} md={12}>
          <BuilderField path="consent.vendor_id" label={t('jstag.consent.vendor_id')} help={t('jstag.consent.vendor_help')} issues={issues} required={usesMacros}>
            <InputNumber
              id={fieldDomId('consent.vendor_id')}
              value={value.vendor_id}
              min={1}
              max={VENDOR_ID_MAX}
              precision={0}
              style={{ width: '100%' }}
              onChange={(n) => onChange({ ...value, vendor_id: typeof n === 'number' && Number.isFinite(n) ? n : null })}
            />
          </BuilderField>
        </Col>
        {asksCmp ? (
          <Col xs={24} md={12}>
            <BuilderField path="consent.timeout_ms" label={t('jstag.consent.timeout')} help={t('jstag.consent.timeout_help')} issues={issues}>
              <InputNumber
                id={fieldDomId('consent.timeout_ms')}
                value={value.timeout_ms}
                min={0}
                max={CONSENT_TIMEOUT_MAX_MS}
                step={100}
                precision={0}
                style={{ width: '100%' }}
                onChange={(n) => onChange({ ...value, timeout_ms: typeof n === 'number' && Number.isFinite(n) ? n : 0 })}
              />
            </BuilderField>
          </Col>
        ) : null}
      </Row>
    </BuilderSection>
  );
}

/** The server this app's API answers on: the default ad server of a new tag (the test ad server). */
export function thisServerOrigin(restBase: string): string {
  return new URL(restBase || '/', window.location.href).origin;
}

/** The ad unit's own name from the subject picker's "site / unit" text, when it can be a code. */
export function adUnitCodeOf(subjectName: string | null): string | null {
  const code = subjectName?.split(' / ').pop()?.trim() ?? '';
  return /^[A-Za-z0-9_.:/-]{1,100}$/.test(code) ? code : null;
}
