/**
 * Entering a few days of one partner by hand. Each line is checked as it is typed by core's rules
 * (the API checks them again and its errors land next to the same fields); a save that would
 * replace days asks first, listing them; cancelling with typed figures asks before losing them.
 */
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { utcToday } from '@backoffice/core/billing-accounts';
import { parseImpressions, parseRevenue, type EnterStatsResult, type ManualPartner, type StatEntry } from '@backoffice/core/partner-stats';
import { App, Button, Form, Input, Select, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { ActionModal } from '../../components/action-modal.tsx';
import { DateInput } from '../../components/date-input.tsx';
import { useApiAction } from '../../components/use-api-action.ts';
import { api } from '../../lib/api.ts';
import { FetchError } from '../../lib/fetch-client.ts';
import { replacedDaysOf } from './partner-stats-api.ts';
import { ReplaceList } from './replace-list.tsx';

interface DayLine {
  day: string | null;
  impressions: string;
  revenue: string;
}
interface Values {
  partner?: number;
  days: DayLine[];
}

export function EnterDaysModal({ partners, onClose, onSaved }: { partners: readonly ManualPartner[]; onClose: () => void; onSaved: () => void }) {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const [form] = Form.useForm<Values>();
  const action = useApiAction<'save'>();
  const today = utcToday();

  const rule = (check: (v: string) => { ok: boolean; error?: string }) => ({
    validator: async (_: unknown, v: unknown) => {
      const r = check(String(v ?? ''));
      if (!r.ok) throw new Error(t(r.error ?? 'stats.required'));
    },
  });

  const send = async (entries: StatEntry[], replace: boolean): Promise<string | null> => {
    const out = await api.request<EnterStatsResult>('stats-manual', { method: 'POST', body: { entries, source: 'manual', replace } });
    onSaved();
    onClose();
    return out.inserted + out.replaced === 0 ? 'stats.nothing_changed' : 'stats.saved';
  };

  const serverErrors = (e: unknown): boolean => {
    const days = replacedDaysOf(e);
    if (days) {
      void modal.confirm({
        title: t('stats.replace.title', { count: days.length }),
        width: 640,
        content: <ReplaceList days={days} />,
        okText: t('stats.replace.ok'),
        cancelText: t('common.cancel'),
        okButtonProps: { danger: true, ...({ 'data-testid': 'stats-replace-ok' } as Record<string, string>) },
        onOk: () => void action.run('save', () => send(entriesOf(form.getFieldsValue(true) as Values), true)),
      });
      return true;
    }
    if (e instanceof FetchError && e.details.errors) {
      const fields = Object.entries(e.details.errors).flatMap(([k, key]) => {
        const m = /^entries\.(\d+)\.(\w+)$/.exec(k);
        if (!m) return [];
        const name = m[2] === 'demand_partner_id' ? ['partner'] : ['days', Number(m[1]), m[2]!];
        return [{ name: name as never, errors: [t(key)] }];
      });
      if (fields.length > 0) {
        form.setFields(fields);
        return true;
      }
    }
    return false;
  };

  const entriesOf = (v: Values): StatEntry[] =>
    v.days.map((d) => ({
      day: d.day ?? '',
      demand_partner_id: v.partner ?? 0,
      impressions: (parseImpressions(d.impressions) as { value: number }).value,
      revenue: (parseRevenue(d.revenue) as { value: string }).value,
      currency: 'USD',
    }));

  const save = async () => {
    let values: Values;
    try {
      values = await form.validateFields();
    } catch {
      return;
    }
    void action.run('save', () => send(entriesOf(values), false), serverErrors);
  };

  const cancel = () => {
    if (!form.isFieldsTouched()) return onClose();
    void modal.confirm({ title: t('stats.form.leave'), okText: t('stats.form.discard'), cancelText: t('common.cancel'), onOk: onClose });
  };

  return (
    <ActionModal title={t('stats.form.title')} ok={t('stats.form.save')} onOk={() => void save()} onCancel={cancel} busy={action.busy === 'save'} testId="stats-enter-save" className="bo-ps-modal" destroyOnHidden>
      <Typography.Paragraph type="secondary">{t('stats.form.help')}</Typography.Paragraph>
      <Form<Values> form={form} layout="vertical" initialValues={{ days: [{ day: null, impressions: '', revenue: '' }] }} data-testid="stats-enter-form">
        <Form.Item name="partner" label={t('stats.col.partner')} rules={[{ required: true, message: t('stats.partner_required') }]}>
          <Select
            showSearch
            optionFilterProp="label"
            options={partners.map((p) => ({ value: p.id, label: p.name }))}
            placeholder={t('stats.partner_required')}
            data-testid="stats-enter-partner"
          />
        </Form.Item>
        <Form.List name="days">
          {(fields, { add, remove }) => (
            <>
              {fields.map((f, i) => (
                <div key={f.key} className="bo-ps-line" data-testid={`stats-enter-line-${i}`}>
                  <Form.Item name={[f.name, 'day']} label={t('stats.col.day')} rules={[{ required: true, message: t('stats.required') }]}>
                    <DateInput max={today} aria-label={`${t('stats.col.day')} ${i + 1}`} id={`stats-day-${i}`} />
                  </Form.Item>
                  <Form.Item name={[f.name, 'impressions']} label={t('stats.col.impressions')} rules={[rule((v) => parseImpressions(v))]}>
                    <Input inputMode="numeric" aria-label={`${t('stats.col.impressions')} ${i + 1}`} data-testid={`stats-impressions-${i}`} />
                  </Form.Item>
                  <Form.Item name={[f.name, 'revenue']} label={`${t('stats.col.revenue')} (USD)`} rules={[rule((v) => parseRevenue(v))]}>
                    <Input inputMode="decimal" aria-label={`${t('stats.col.revenue')} ${i + 1}`} data-testid={`stats-revenue-${i}`} />
                  </Form.Item>
                  <Button
                    type="text"
                    icon={<DeleteOutlined />}
                    aria-label={t('stats.form.remove_day')}
                    title={t('stats.form.remove_day')}
                    disabled={fields.length === 1}
                    onClick={() => remove(f.name)}
                    className="bo-ps-line__remove"
                  />
                </div>
              ))}
              <Button icon={<PlusOutlined />} onClick={() => add({ day: null, impressions: '', revenue: '' })} disabled={fields.length >= 31} data-testid="stats-enter-add">
                {t('stats.form.add_day')}
              </Button>
            </>
          )}
        </Form.List>
      </Form>
    </ActionModal>
  );
}
