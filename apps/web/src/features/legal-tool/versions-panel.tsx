/**
 * A template's versions: number, author, date and comment (and the version a restore copied);
 * view an older one, compare two (a line diff of the chosen language's title and body), restore
 * one (after a confirmation: its texts become the next version; nothing is lost).
 */
import {
  diffLines,
  LEGAL_LANGUAGES,
  type LegalLanguage,
  type TemplateVersionDto,
  type TemplateVersionSummary,
} from '@backoffice/core/legal';
import { Alert, App, Button, Empty, List, Modal, Select, Space, Spin, Tabs, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocale } from '../../components/use-locale.ts';
import { useNotice } from '../../components/use-notice.ts';
import { errorText, isSessionError } from '../../lib/api.ts';
import { usePermission } from '../../lib/permission.tsx';
import { formatDateTime } from '../../resources/resource-cells.tsx';
import { useDrafts } from './drafts.ts';
import { useLegalMutations, useVersion, useVersions } from './legal-api.ts';

function VersionTexts({ version }: { version: TemplateVersionDto }) {
  const { t } = useTranslation();
  return (
    <Tabs
      items={LEGAL_LANGUAGES.map((l) => ({
        key: l,
        label: t(`legal.document.language.${l}`),
        children: (
          <div className="bo-legal-view" data-testid={`legal-view-${l}`}>
            <Typography.Title level={4}>{version[`title_${l}`]}</Typography.Title>
            <pre className="bo-legal-pre" tabIndex={0}>
              {version[`body_${l}`]}
            </pre>
          </div>
        ),
      }))}
    />
  );
}

function CompareView({ templateId, left, right }: { templateId: number; left: number; right: number }) {
  const { t } = useTranslation();
  const [language, setLanguage] = useState<LegalLanguage>('en');
  const a = useVersion(templateId, left);
  const b = useVersion(templateId, right);
  if (a.isError || b.isError) return <Alert type="error" showIcon title={errorText(a.error ?? b.error)} />;
  if (!a.data || !b.data) return <Spin />;
  const text = (v: TemplateVersionDto) => `${v[`title_${language}`]}\n\n${v[`body_${language}`]}`;
  const all = diffLines(text(a.data), text(b.data));
  const changed = all.filter((l) => l.op !== 'same').length;
  // The changes with two lines around each; longer unchanged runs fold into one "…" line.
  const near = (i: number) => all.slice(Math.max(0, i - 2), i + 3).some((l) => l.op !== 'same');
  const lines: ((typeof all)[number] | null)[] = [];
  all.forEach((l, i) => {
    if (l.op !== 'same' || near(i)) lines.push(l);
    else if (lines[lines.length - 1] !== null) lines.push(null);
  });
  return (
    <div data-testid="legal-compare">
      <Space wrap className="bo-legal-gap">
        <Tabs
          activeKey={language}
          onChange={(k) => setLanguage(k as LegalLanguage)}
          items={LEGAL_LANGUAGES.map((l) => ({ key: l, label: t(`legal.document.language.${l}`) }))}
        />
        <Typography.Text type="secondary">
          {t('legal.compare.changed_lines', { count: changed })}
        </Typography.Text>
      </Space>
      <div
        className="bo-legal-diff"
        tabIndex={0}
        role="region"
        aria-label={t('legal.compare.title', { a: left, b: right })}
      >
        {lines.map((l, i) =>
          l === null ? (
            <div key={i} className="bo-legal-diff__line bo-legal-diff__fold">
              {t('legal.compare.unchanged')}
            </div>
          ) : l.op === 'same' ? (
            <div key={i} className="bo-legal-diff__line">
              <span aria-hidden="true"> </span>
              {l.text || '\u00a0'}
            </div>
          ) : l.op === 'added' ? (
            <ins
              key={i}
              className="bo-legal-diff__line bo-legal-diff__line--added"
              data-testid="legal-diff-added"
            >
              <span aria-hidden="true">+ </span>
              {l.text || '\u00a0'}
            </ins>
          ) : (
            <del
              key={i}
              className="bo-legal-diff__line bo-legal-diff__line--removed"
              data-testid="legal-diff-removed"
            >
              <span aria-hidden="true">- </span>
              {l.text || '\u00a0'}
            </del>
          ),
        )}
      </div>
    </div>
  );
}

function VersionModal({
  templateId,
  number,
  onClose,
}: {
  templateId: number;
  number: number;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const version = useVersion(templateId, number);
  return (
    <Modal
      open
      title={t('legal.versions.view_title', { number })}
      onCancel={onClose}
      footer={null}
      width={880}
      destroyOnHidden
    >
      {version.isError ? (
        <Alert type="error" showIcon title={errorText(version.error)} />
      ) : version.data ? (
        <VersionTexts version={version.data} />
      ) : (
        <Spin />
      )}
    </Modal>
  );
}

function CompareModal({
  templateId,
  versions,
  initial,
  onClose,
}: {
  templateId: number;
  versions: TemplateVersionSummary[];
  initial: [number, number];
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [[left, right], setPair] = useState(initial);
  const options = versions.map((v) => ({ value: v.number, label: `v${v.number}` }));
  return (
    <Modal
      open
      title={t('legal.compare.title', { a: left, b: right })}
      onCancel={onClose}
      footer={null}
      width={960}
      destroyOnHidden
    >
      <Space wrap className="bo-legal-gap">
        <Select
          aria-label={t('legal.compare.from')}
          value={left}
          options={options}
          onChange={(v: number) => setPair([v, right])}
          style={{ minWidth: 100 }}
          data-testid="legal-compare-left"
        />
        <span>→</span>
        <Select
          aria-label={t('legal.compare.to')}
          value={right}
          options={options}
          onChange={(v: number) => setPair([left, v])}
          style={{ minWidth: 100 }}
          data-testid="legal-compare-right"
        />
      </Space>
      <CompareView key={`${left}-${right}`} templateId={templateId} left={left} right={right} />
    </Modal>
  );
}

export function VersionsPanel({
  templateId,
  currentVersion,
  dirty,
}: {
  templateId: number;
  currentVersion: number | null;
  dirty: boolean;
}) {
  const { t } = useTranslation();
  const locale = useLocale();
  const notice = useNotice();
  const { modal } = App.useApp();
  const canWrite = usePermission('/v1/legal', 'write');
  const versions = useVersions(templateId);
  const { restoreVersion } = useLegalMutations(templateId);
  const [viewing, setViewing] = useState<number | null>(null);
  const [comparing, setComparing] = useState<[number, number] | null>(null);

  const restore = (v: TemplateVersionSummary) =>
    modal.confirm({
      title: t('legal.versions.restore_confirm', { number: v.number }),
      content: dirty
        ? t('legal.versions.restore_dirty')
        : t('legal.versions.restore_body', { next: (currentVersion ?? 0) + 1 }),
      okText: t('legal.versions.restore'),
      okButtonProps: { id: 'legal-restore-confirm' },
      onOk: async () => {
        try {
          const saved = await restoreVersion(v.number, currentVersion ?? v.number);
          useDrafts.getState().drop(templateId);
          void notice.success(t('legal.version_restored_number', { number: v.number, next: saved.number }));
        } catch (error) {
          if (!isSessionError(error)) void notice.error(errorText(error));
        }
      },
    });

  return (
    <section className="bo-legal-versions" aria-labelledby="legal-versions-title">
      <Typography.Title level={3} id="legal-versions-title" className="bo-legal-subtitle">
        {t('legal.versions.title')}
      </Typography.Title>
      {versions.isError ? <Alert type="error" showIcon title={errorText(versions.error)} /> : null}
      {versions.isPending ? (
        <Spin />
      ) : versions.data && versions.data.length === 0 ? (
        <Empty description={t('legal.versions.empty')} />
      ) : (
        <List
          dataSource={versions.data ?? []}
          data-testid="legal-versions"
          renderItem={(v) => (
            <List.Item key={v.number} data-testid={`legal-version-${v.number}`}>
              <List.Item.Meta
                title={
                  <Space wrap size={4}>
                    <Typography.Text strong>v{v.number}</Typography.Text>
                    {v.number === currentVersion ? (
                      <Tag color="blue">{t('legal.versions.current')}</Tag>
                    ) : null}
                    {v.restored_from !== null ? (
                      <Tag>{t('legal.versions.restored_from', { number: v.restored_from })}</Tag>
                    ) : null}
                  </Space>
                }
                description={
                  <>
                    <div>{v.comment}</div>
                    <Typography.Text type="secondary">
                      {t('legal.versions.by', {
                        name: v.author.name ?? t('resource.nobody'),
                        at: formatDateTime(v.created_at, locale),
                      })}
                    </Typography.Text>
                    <Space wrap size={8} className="bo-legal-versions__actions">
                      <Button
                        size="small"
                        onClick={() => setViewing(v.number)}
                        data-testid={`legal-version-view-${v.number}`}
                      >
                        {t('legal.versions.view')}
                      </Button>
                      {currentVersion !== null && v.number !== currentVersion ? (
                        <Button
                          size="small"
                          onClick={() => setComparing([v.number, currentVersion])}
                          data-testid={`legal-version-compare-${v.number}`}
                        >
                          {t('legal.versions.compare')}
                        </Button>
                      ) : null}
                      {canWrite && currentVersion !== null && v.number !== currentVersion ? (
                        <Button
                          size="small"
                          onClick={() => restore(v)}
                          data-testid={`legal-version-restore-${v.number}`}
                        >
                          {t('legal.versions.restore')}
                        </Button>
                      ) : null}
                    </Space>
                  </>
                }
              />
            </List.Item>
          )}
        />
      )}
      {viewing !== null ? (
        <VersionModal templateId={templateId} number={viewing} onClose={() => setViewing(null)} />
      ) : null}
      {comparing && versions.data ? (
        <CompareModal
          templateId={templateId}
          versions={versions.data}
          initial={comparing}
          onClose={() => setComparing(null)}
        />
      ) : null}
    </section>
  );
}
