/**
 * An app's SKAdNetwork ids (Info.plist SKAdNetworkItems), on both SDK screens: one numbered line
 * per id with its problem under it (Apple's format, lowercase, a repeat names the first line), add
 * one, remove one, and "Paste many": what an ad network publishes (one a line, commas, a JSON array
 * or Info.plist lines) is added as written, so a bad id shows its error at its line and nothing is
 * lost. Issues come from the builder's rules at `path.<index>` (packages/core app-shared.ts).
 */
import { DeleteOutlined, PlusOutlined, SnippetsOutlined } from '@ant-design/icons';
import { parseSkadNetworkList } from '@backoffice/core/builders/app-shared';
import { Alert, Button, Form, Input, Popconfirm, Space, Typography } from 'antd';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNotice } from '../use-notice.ts';
import './mobile-apps.css';

export interface SkanListInputProps {
  value: readonly string[];
  onChange: (ids: string[]) => void;
  /** The list's configuration path (issues at `path` and `path.<index>`). */
  path: string;
  /** The status and translated message of the first issue at a path (the builders' fieldIssue). */
  issueAt: (path: string) => { validateStatus?: 'error' | 'warning'; help?: string };
  /** The DOM id of a path's input (the builders' fieldDomId: an issue in the list focuses it). */
  domId: (path: string) => string;
  testId: string;
}

export function SkanListInput({ value, onChange, path, issueAt, domId, testId }: SkanListInputProps) {
  const { t } = useTranslation();
  const notice = useNotice();
  const uid = useId();
  const [pasteOpen, setPasteOpen] = useState(false);
  const [pasted, setPasted] = useState('');
  // The list's own message (an empty iOS list): only when no line has a problem, which says more.
  const listIssue = value.some((_, i) => issueAt(`${path}.${i}`).help) ? {} : issueAt(path);

  const set = (i: number, id: string) => onChange(value.map((v, j) => (j === i ? id : v)));
  const remove = (i: number) => onChange(value.filter((_, j) => j !== i));
  const addPasted = () => {
    const ids = parseSkadNetworkList(pasted);
    if (ids.length === 0) return void notice.warning(t('app_tracking.skan.paste_none'));
    onChange([...value, ...ids]);
    setPasted('');
    setPasteOpen(false);
    void notice.success(t(ids.length === 1 ? 'app_tracking.skan.paste_added_one' : 'app_tracking.skan.paste_added', { count: ids.length }));
  };

  return (
    <div className="bo-skan-list" data-testid={`${testId}-skan`}>
      <div className="bo-skan-list__toolbar">
        <Typography.Text type="secondary" data-testid={`${testId}-skan-count`}>
          {t(value.length === 1 ? 'app_tracking.skan.count_one' : 'app_tracking.skan.count', { count: value.length })}
        </Typography.Text>
        <Space wrap size={6}>
          <Button size="small" icon={<PlusOutlined />} onClick={() => onChange([...value, ''])} data-testid={`${testId}-skan-add`}>
            {t('app_tracking.skan.add')}
          </Button>
          <Button size="small" icon={<SnippetsOutlined />} aria-expanded={pasteOpen} aria-controls={`${uid}-paste`} onClick={() => setPasteOpen((o) => !o)} data-testid={`${testId}-skan-paste-open`}>
            {t('app_tracking.skan.paste')}
          </Button>
          {value.length > 0 ? (
            <Popconfirm title={t('app_tracking.skan.clear')} okText={t('common.yes')} cancelText={t('common.no')} onConfirm={() => onChange([])}>
              <Button size="small" danger data-testid={`${testId}-skan-clear`}>
                {t('app_tracking.skan.clear')}
              </Button>
            </Popconfirm>
          ) : null}
        </Space>
      </div>
      {pasteOpen ? (
        <div className="bo-skan-list__paste" id={`${uid}-paste`}>
          <label htmlFor={`${uid}-paste-text`} className="bo-skan-list__paste-label">
            <Typography.Text>{t('app_tracking.skan.paste_label')}</Typography.Text>
          </label>
          <Input.TextArea
            id={`${uid}-paste-text`}
            value={pasted}
            onChange={(e) => setPasted(e.target.value)}
            autoSize={{ minRows: 4, maxRows: 12 }}
            spellCheck={false}
            placeholder={'cstr6suwn9.skadnetwork\n4fzdc2evr5.skadnetwork'}
            data-testid={`${testId}-skan-paste-text`}
          />
          <Button type="primary" size="small" className="bo-app-panel__note" onClick={addPasted} disabled={pasted.trim() === ''} data-testid={`${testId}-skan-paste-add`}>
            {t('app_tracking.skan.paste_add')}
          </Button>
        </div>
      ) : null}
      {listIssue.help ? <Alert type={listIssue.validateStatus === 'error' ? 'error' : 'warning'} showIcon title={listIssue.help} className="bo-app-panel__note" data-testid={`${testId}-skan-issue`} /> : null}
      <div id={domId(path)} tabIndex={-1} />
      {value.length === 0 ? (
        <Typography.Paragraph type="secondary">{t('app_tracking.skan.empty_list')}</Typography.Paragraph>
      ) : (
        <ol className="bo-skan-list__rows" aria-label={t('app_tracking.skan.title')}>
          {value.map((id, i) => {
            const line = i + 1;
            return (
              <li key={i} className="bo-skan-list__row" data-testid={`${testId}-skan-row`} data-line={line}>
                <Typography.Text type="secondary" className="bo-skan-list__line" aria-hidden>
                  {line}
                </Typography.Text>
                <Form.Item {...issueAt(`${path}.${i}`)}>
                  <Input
                    id={domId(`${path}.${i}`)}
                    value={id}
                    onChange={(e) => set(i, e.target.value)}
                    aria-label={t('app_tracking.skan.line', { line })}
                    autoComplete="off"
                    spellCheck={false}
                    data-testid={`${testId}-skan-input`}
                  />
                </Form.Item>
                <Button type="text" danger icon={<DeleteOutlined />} aria-label={t('app_tracking.skan.remove', { line })} title={t('app_tracking.skan.remove', { line })} onClick={() => remove(i)} />
              </li>
            );
          })}
        </ol>
      )}
    </div>
  );
}
