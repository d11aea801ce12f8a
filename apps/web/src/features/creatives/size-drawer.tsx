/**
 * One IAB size in a drawer (deep link `?open=300x250`): its shape, weight limits, formats and
 * weight source, a link to resize an image to it, and the ad units that use it (publisher, site or
 * app, ad unit, media type), searched and paged by the server, the search and page in the URL.
 */
import { ExpandOutlined } from '@ant-design/icons';
import type { CreativeSizeDetail, SizeAdUnit } from '@backoffice/core/creatives';
import { AD_UNIT_PAGE_SIZE } from '@backoffice/core/creatives';
import { keepPreviousData } from '@tanstack/react-query';
import { Alert, Descriptions, Drawer, Empty, Input, Skeleton, Space, Table, Tag, Typography } from 'antd';
import { useEffect, useState, type HTMLAttributes } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ScrollRegion } from '../../components/scroll-region.tsx';
import { useLocale } from '../../components/use-locale.ts';
import { errorText } from '../../lib/api.ts';
import { useApiQuery } from '../../lib/query.ts';
import { useDebouncedValue } from '../../lib/use-debounced-value.ts';
import { useViewport } from '../../lib/use-viewport.ts';
import { StatusTag } from '../../resources/resource-cells.tsx';
import { RESIZE_SCREEN, SIZES_PATH, unitsQuery, type SizesView } from './creatives-api.ts';
import { SizeShape } from './size-shape.tsx';

export function SizeDrawer({
  view,
  onView,
  onClose,
}: {
  view: SizesView;
  onView: (patch: Partial<SizesView>) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const locale = useLocale();
  const { isMobile } = useViewport();
  const id = view.open!;
  const detail = useApiQuery<CreativeSizeDetail>(
    `${SIZES_PATH}/${id}`,
    { query: unitsQuery(view) },
    { placeholderData: keepPreviousData },
  );
  const d = detail.data?.size.id === id ? detail.data : undefined;
  const [text, setText] = useState(view.unitSearch);
  const debounced = useDebouncedValue(text, 400);
  useEffect(() => setText(view.unitSearch), [view.unitSearch]);
  useEffect(() => {
    if (debounced.trim() !== view.unitSearch) onView({ unitSearch: debounced.trim(), unitPage: 1 });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only typing applies the search
  }, [debounced]);
  const kb = (v: number | null) => (v === null ? t('creatives.none') : t('creatives.kb', { kb: v }));
  const title = d ? t('creatives.detail.title', { size: d.size.id, name: t(d.size.name_key) }) : id;

  return (
    <Drawer
      open
      onClose={onClose}
      size={isMobile ? '100%' : 760}
      title={title}
      destroyOnHidden
      data-testid="creative-size-drawer"
    >
      {detail.error ? (
        <Alert
          type="error"
          showIcon
          title={t('creatives.detail.load_failed')}
          description={errorText(detail.error)}
        />
      ) : null}
      {!d && !detail.error ? <Skeleton active /> : null}
      {d ? (
        <>
          <div className="bo-cre-drawer-head">
            <SizeShape
              width={d.size.width}
              height={d.size.height}
              box={120}
              label={t('creatives.preview_label', { size: d.size.id })}
            />
            <Descriptions
              size="small"
              column={1}
              title={t('creatives.detail.facts')}
              data-testid="creative-size-facts"
            >
              <Descriptions.Item label={t('creatives.col.size')}>
                {d.size.width} × {d.size.height} px
              </Descriptions.Item>
              <Descriptions.Item label={t('creatives.col.initial_load')}>
                {kb(d.size.initial_load_kb)}
              </Descriptions.Item>
              <Descriptions.Item label={t('creatives.col.subload')}>
                {kb(d.size.subload_kb)}
              </Descriptions.Item>
              <Descriptions.Item label={t('creatives.col.basis')}>
                {t(`creatives.basis.${d.size.weight_basis}`)}
              </Descriptions.Item>
              <Descriptions.Item label={t('creatives.col.formats')}>
                <Space size={4} wrap>
                  {d.size.formats.map((f) => (
                    <Tag key={f}>{t(`creatives.format.${f}`)}</Tag>
                  ))}
                  {d.size.common ? <StatusTag tone="ok">{t('creatives.common_tag')}</StatusTag> : null}
                </Space>
              </Descriptions.Item>
            </Descriptions>
          </div>
          <Link to={`/${locale}${RESIZE_SCREEN}?size=${d.size.id}`} data-testid="creative-size-resize">
            <ExpandOutlined /> {t('creatives.resize_with')}
          </Link>

          <Typography.Title level={2} className="bo-cre-h2">
            {t('creatives.detail.units')}
          </Typography.Title>
          {!d.served ? (
            <Alert
              type="info"
              showIcon
              title={t('creatives.detail.not_served')}
              data-testid="creative-size-not-served"
            />
          ) : (
            <>
              <Input.Search
                allowClear
                className="bo-cre-units-search"
                placeholder={t('creatives.detail.search')}
                aria-label={t('creatives.detail.search')}
                value={text}
                maxLength={100}
                onChange={(e) => setText(e.target.value)}
                onSearch={(v) => onView({ unitSearch: v.trim(), unitPage: 1 })}
                data-testid="creative-units-search"
              />
              <Typography.Paragraph type="secondary" data-testid="creative-units-count">
                {t('creatives.detail.units_count', { count: d.ad_units.total })}
              </Typography.Paragraph>
              <ScrollRegion label={t('creatives.detail.units')}>
                <Table<SizeAdUnit>
                  size="small"
                  rowKey="id"
                  data-testid="creative-units"
                  loading={detail.isFetching}
                  dataSource={d.ad_units.items}
                  onRow={(r) => ({ 'data-testid': `creative-unit-${r.id}` }) as HTMLAttributes<HTMLElement>}
                  locale={{
                    emptyText: (
                      <Empty
                        image={Empty.PRESENTED_IMAGE_SIMPLE}
                        description={
                          view.unitSearch ? t('creatives.detail.no_match') : t('creatives.detail.no_units')
                        }
                      />
                    ),
                  }}
                  columns={[
                    {
                      key: 'publisher',
                      title: t('creatives.unit.publisher'),
                      render: (_: unknown, r: SizeAdUnit) => r.publisher.name,
                    },
                    {
                      key: 'site',
                      title: t('creatives.unit.site'),
                      render: (_: unknown, r: SizeAdUnit) => r.site.name,
                    },
                    {
                      key: 'ad_unit',
                      title: t('creatives.unit.ad_unit'),
                      render: (_: unknown, r: SizeAdUnit) => <span className="bo-cre-nowrap">{r.name}</span>,
                    },
                    {
                      key: 'media_type',
                      title: t('creatives.unit.media_type'),
                      render: (_: unknown, r: SizeAdUnit) => r.media_type,
                    },
                  ]}
                  pagination={{
                    current: view.unitPage,
                    pageSize: AD_UNIT_PAGE_SIZE,
                    total: d.ad_units.total,
                    showSizeChanger: false,
                    simple: isMobile,
                    onChange: (unitPage) => onView({ unitPage }),
                  }}
                />
              </ScrollRegion>
            </>
          )}
        </>
      ) : null}
    </Drawer>
  );
}
