/**
 * A list's column chooser (done.md 3): which columns each person shows, remembered per person
 * and list in local storage, and the button with a checkbox per column. `required` columns (the
 * one that opens a row) cannot be hidden. Generic over the list's column keys.
 */
import { SettingOutlined } from '@ant-design/icons';
import { Button, Checkbox, Dropdown, theme as antdTheme } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSession } from '../lib/session-store.ts';

/** The visible columns of list `listId` (in `all`'s order), remembered per person. */
export function useStoredColumns<K extends string>(
  listId: string,
  all: readonly K[],
  defaults: readonly K[],
): [K[], (next: K[]) => void] {
  const userId = useSession((s) => s.user?.id);
  const key = `bo.columns.${userId ?? 0}.${listId}`;
  const read = (): K[] => {
    try {
      const saved = JSON.parse(localStorage.getItem(key) ?? 'null') as unknown;
      if (Array.isArray(saved)) {
        const kept = all.filter((k) => saved.includes(k));
        if (kept.length > 0) return kept;
      }
    } catch {
      // a broken value: the default columns
    }
    return all.filter((k) => defaults.includes(k));
  };
  const [state, setState] = useState<{ key: string; visible: K[] }>(() => ({ key, visible: read() }));
  // Another list (a tab of the same screen) reads its own choice.
  const visible = state.key === key ? state.visible : read();
  const save = (next: K[]) => {
    const ordered = all.filter((k) => next.includes(k));
    if (ordered.length === 0) return;
    setState({ key, visible: ordered });
    localStorage.setItem(key, JSON.stringify(ordered));
  };
  return [visible, save];
}

export interface ColumnChooserProps<K extends string> {
  all: readonly K[];
  visible: readonly K[];
  onChange: (next: K[]) => void;
  /** A column's title. */
  label: (key: K) => string;
  required?: readonly K[];
  testId?: string;
}

export function ColumnChooser<K extends string>({
  all,
  visible,
  onChange,
  label,
  required = [],
  testId,
}: ColumnChooserProps<K>) {
  const { t } = useTranslation();
  const { token } = antdTheme.useToken();
  return (
    <Dropdown
      trigger={['click']}
      popupRender={() => (
        <div
          className="bo-column-chooser"
          role="group"
          aria-label={t('resource.columns')}
          style={{
            background: token.colorBgElevated,
            boxShadow: token.boxShadowSecondary,
            borderRadius: token.borderRadiusLG,
            padding: 8,
            display: 'flex',
            flexDirection: 'column',
            gap: 4,
            maxHeight: 420,
            overflowY: 'auto',
          }}
        >
          {all.map((k) => (
            <Checkbox
              key={k}
              checked={visible.includes(k)}
              disabled={required.includes(k)}
              onChange={(e) => onChange(e.target.checked ? [...visible, k] : visible.filter((x) => x !== k))}
            >
              {label(k)}
            </Checkbox>
          ))}
        </div>
      )}
    >
      <Button icon={<SettingOutlined />} data-testid={testId}>
        {t('resource.columns')}
      </Button>
    </Dropdown>
  );
}
