/**
 * The app part of both SDK screens' forms (docs/decisions/041-sdk-and-app-tracking.md): the
 * platform, the bundle and the store id (required on iOS; on Android the bundle serves), each
 * showing the first issue at its configuration path. A screen's own fields of this part go beside
 * the platform (`afterPlatform`) or after the store id (`children`), as columns of its row.
 */
import { APP_PLATFORMS, type AppPlatform } from '@backoffice/core/builders/app-shared';
import type { BuilderIssue } from '@backoffice/core/builders/common';
import { Col, Input, Radio, Row } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { BuilderField as Field, BuilderSection as Section } from '../builders/builder-fields.tsx';
import { fieldDomId } from '../builders/field-issue.ts';
import type { AppOfConfig } from './app-panel.tsx';

export interface AppSectionProps {
  title: string;
  /** What the configuration says about its app. */
  app: AppOfConfig;
  issues: readonly BuilderIssue[];
  /** Where the bundle and the store id are in the configuration (their issues and input ids). */
  paths: { bundle: string; storeId: string };
  onPlatform: (platform: AppPlatform) => void;
  onBundle: (bundle: string) => void;
  onStoreId: (storeId: string) => void;
  /** Columns right after the platform's. */
  afterPlatform?: ReactNode;
  /** Columns after the store id's. */
  children?: ReactNode;
  /** The platform's test id is `<testId>-platform`. */
  testId: string;
}

export function AppSection({
  title,
  app,
  issues,
  paths,
  onPlatform,
  onBundle,
  onStoreId,
  afterPlatform,
  children,
  testId,
}: AppSectionProps) {
  const { t } = useTranslation();
  const ios = app.platform === 'ios';
  const text = (path: string, value: string, onChange: (v: string) => void, placeholder: string) => (
    <Input
      id={fieldDomId(path)}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      placeholder={placeholder}
      autoComplete="off"
      spellCheck={false}
    />
  );
  return (
    <Section title={title}>
      <Row gutter={16}>
        <Col xs={24} md={12}>
          <Field issues={issues} path="platform" label={t('sdk.field.platform')}>
            <Radio.Group
              id={fieldDomId('platform')}
              optionType="button"
              buttonStyle="solid"
              value={app.platform}
              onChange={(e) => onPlatform(e.target.value as AppPlatform)}
              options={APP_PLATFORMS.map((p) => ({ value: p, label: t(`app_tracking.platform.${p}`) }))}
              aria-label={t('sdk.field.platform')}
              data-testid={`${testId}-platform`}
            />
          </Field>
        </Col>
        {afterPlatform}
        <Col xs={24} md={12}>
          <Field issues={issues} path={paths.bundle} label={t('sdk.field.bundle')} required>
            {text(paths.bundle, app.bundle, onBundle, ios ? 'com.nimbusnews.reader' : 'com.runagames.puzzle')}
          </Field>
        </Col>
        <Col xs={24} md={12}>
          <Field
            issues={issues}
            path={paths.storeId}
            label={t('sdk.field.store_id')}
            required={ios}
            help={ios ? t('sdk.field.store_id_help_ios') : t('sdk.field.store_id_help_android')}
          >
            {text(paths.storeId, app.storeId, onStoreId, ios ? 'id1482750917' : app.bundle)}
          </Field>
        </Col>
        {children}
      </Row>
    </Section>
  );
}
