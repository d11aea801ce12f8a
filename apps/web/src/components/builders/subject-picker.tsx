/**
 * What a builder's versions are for: the subject's type (when the builder allows several) and a
 * searched Select of the publishers, ad units, partners or apps (the API's /subjects), or "no
 * subject" when the builder allows none.
 */
import type { BuilderKind, BuilderSubject, BuilderSubjectOption } from '@backoffice/core/builders/common';
import { Select } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDebouncedValue } from '../../lib/use-debounced-value.ts';
import { useSubjects } from './builders-api.ts';
import type { BuilderSubjectRef } from './types.ts';

export interface SubjectPickerProps {
  kind: BuilderKind;
  subjects: readonly BuilderSubject[];
  type: BuilderSubject;
  value: BuilderSubjectRef | null;
  onTypeChange: (type: BuilderSubject) => void;
  onChange: (subject: BuilderSubjectRef | null) => void;
  testId: string;
}

export function SubjectPicker({ kind, subjects, type, value, onTypeChange, onChange, testId }: SubjectPickerProps) {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const q = useDebouncedValue(search, 250);
  const matches = useSubjects(kind, type, q);
  const options = useMemo(() => {
    const list: BuilderSubjectOption[] = [...(matches.data ?? [])];
    if (value && value.id !== null && value.type === type && !list.some((o) => o.id === value.id)) list.unshift({ type, id: value.id, name: value.name ?? `#${value.id}` });
    return list.map((o) => ({ value: o.id, label: o.name }));
  }, [matches.data, value, type]);

  return (
    <div className="bo-builder-subject" data-testid={`${testId}-subject`}>
      {subjects.length > 1 ? (
        <Select<BuilderSubject>
          className="bo-builder-subject__type"
          value={type}
          onChange={(next) => {
            setSearch('');
            onTypeChange(next);
          }}
          options={subjects.map((s) => ({ value: s, label: t(`builders.subject.${s}`) }))}
          aria-label={t('builders.subject.type')}
          data-testid={`${testId}-subject-type`}
          popupMatchSelectWidth={false}
        />
      ) : null}
      {type === 'none' ? null : (
        <Select<number>
          className="bo-builder-subject__pick"
          showSearch={{ filterOption: false, onSearch: setSearch, searchValue: search }}
          allowClear
          value={value && value.type === type && value.id !== null ? value.id : undefined}
          placeholder={`${t(`builders.subject.${type}`)}: ${t('builders.subject.placeholder')}`}
          notFoundContent={matches.isFetching ? t('common.loading') : t('builders.subject.none_found')}
          loading={matches.isFetching}
          options={options}
          onChange={(id) => {
            if (id === undefined || id === null) return onChange(null);
            const label = options.find((o) => o.value === id)?.label ?? null;
            onChange({ type, id, name: label });
          }}
          onClear={() => onChange(null)}
          aria-label={t(`builders.subject.${type}`)}
          data-testid={`${testId}-subject-pick`}
        />
      )}
    </div>
  );
}
