/**
 * What changes from one rule set to another (a comparison of two versions, an import's preview):
 * the counts, and the added, changed (CPM, currency or type, before and after) and removed rules.
 */
import { Empty, Table, Tabs, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLocale } from '../../components/use-locale.ts';
import { LISTED, type DiffCounts, type DiffLists, type FloorRuleRow } from './floors-api.ts';
import { RuleKeys, TypeTag, cpmText } from './rule-view.tsx';
import { ScrollRegion } from '../../components/scroll-region.tsx';

export function DiffSummary({ counts }: { counts: DiffCounts }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const n = (v: number) => v.toLocaleString(locale);
  return (
    <div className="bo-floors-diffsum" data-testid="floors-diff-summary">
      <span className="bo-floors-diffsum__item bo-floors-diffsum__item--added">
        <strong>{n(counts.added)}</strong> {t('floors.diff.added')}
      </span>
      <span className="bo-floors-diffsum__item bo-floors-diffsum__item--changed">
        <strong>{n(counts.changed)}</strong> {t('floors.diff.changed')}
      </span>
      <span className="bo-floors-diffsum__item bo-floors-diffsum__item--removed">
        <strong>{n(counts.removed)}</strong> {t('floors.diff.removed')}
      </span>
      <span className="bo-floors-diffsum__item">
        <strong>{n(counts.unchanged)}</strong> {t('floors.diff.unchanged')}
      </span>
    </div>
  );
}

function RuleTable({ rules, testId }: { rules: FloorRuleRow[]; testId: string }) {
  const { t } = useTranslation();
  const locale = useLocale();
  return (
    <ScrollRegion label={t('floors.tab.rules')}>
      <Table<FloorRuleRow>
        size="small"
        rowKey={(r, i) => `${r.id}-${String(i)}`}
        dataSource={rules}
        pagination={rules.length > 20 ? { pageSize: 20, showSizeChanger: false } : false}
        scroll={{ x: 'max-content' }}
        data-testid={testId}
        columns={[
          { key: 'keys', title: t('floors.tab.rules'), render: (_: unknown, r) => <RuleKeys rule={r} /> },
          {
            key: 'cpm',
            title: t('floors.cpm'),
            align: 'right',
            render: (_: unknown, r) => cpmText(r.cpm, r.currency, locale),
          },
          { key: 'type', title: t('floors.type'), render: (_: unknown, r) => <TypeTag type={r.type} /> },
        ]}
      />
    </ScrollRegion>
  );
}

export function DiffLists({ counts, lists }: { counts: DiffCounts; lists: DiffLists }) {
  const { t } = useTranslation();
  const locale = useLocale();
  if (counts.added + counts.changed + counts.removed === 0)
    return <Empty description={t('floors.diff.nothing')} />;
  const truncated = counts.added > LISTED || counts.changed > LISTED || counts.removed > LISTED;
  return (
    <>
      <Tabs
        size="small"
        defaultActiveKey={counts.changed > 0 ? 'changed' : counts.added > 0 ? 'added' : 'removed'}
        items={[
          {
            key: 'added',
            label: `${t('floors.diff.added')} (${counts.added.toLocaleString(locale)})`,
            children: <RuleTable rules={lists.added} testId="floors-diff-added" />,
          },
          {
            key: 'changed',
            label: `${t('floors.diff.changed')} (${counts.changed.toLocaleString(locale)})`,
            children: (
              <ScrollRegion label={t('floors.diff.changed')}>
                <Table
                  size="small"
                  rowKey={(c) => String(c.after.id)}
                  dataSource={lists.changed}
                  pagination={lists.changed.length > 20 ? { pageSize: 20, showSizeChanger: false } : false}
                  scroll={{ x: 'max-content' }}
                  data-testid="floors-diff-changed"
                  columns={[
                    {
                      key: 'keys',
                      title: t('floors.tab.rules'),
                      render: (_: unknown, c) => <RuleKeys rule={c.after} />,
                    },
                    {
                      key: 'before',
                      title: t('floors.diff.before'),
                      align: 'right',
                      render: (_: unknown, c) => (
                        <Typography.Text delete type="secondary">
                          {cpmText(c.before.cpm, c.before.currency, locale)}
                          {c.fields.includes('type') ? ` · ${t(`floors.type.${c.before.type}`)}` : ''}
                        </Typography.Text>
                      ),
                    },
                    {
                      key: 'after',
                      title: t('floors.diff.after'),
                      align: 'right',
                      render: (_: unknown, c) => (
                        <strong>
                          {cpmText(c.after.cpm, c.after.currency, locale)}
                          {c.fields.includes('type') ? ` · ${t(`floors.type.${c.after.type}`)}` : ''}
                        </strong>
                      ),
                    },
                  ]}
                />
              </ScrollRegion>
            ),
          },
          {
            key: 'removed',
            label: `${t('floors.diff.removed')} (${counts.removed.toLocaleString(locale)})`,
            children: <RuleTable rules={lists.removed} testId="floors-diff-removed" />,
          },
        ]}
      />
      {truncated ? (
        <Typography.Text type="secondary">{t('floors.diff.listed', { count: LISTED })}</Typography.Text>
      ) : null}
    </>
  );
}
