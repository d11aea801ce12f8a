/**
 * The issues under the code view: status line ("Valid", "3 errors", "checking…") and one button
 * per issue that takes the person to it: its line in the code when it has one, else its field in
 * the form.
 */
import { CheckCircleFilled, CloseCircleFilled, LoadingOutlined, WarningFilled } from '@ant-design/icons';
import type { BuilderIssue } from '@backoffice/core/builders/common';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { issueCounts } from './builder-state.ts';
import { issueText } from './field-issue.ts';

export interface IssuesListProps {
  issues: readonly BuilderIssue[];
  checking: boolean;
  /** Text of the status when nothing is wrong (the builder's, e.g. "Valid VAST 4.2"). */
  validText: string;
  /** The API's check could not run (network, server): said, the local issues still show. */
  checkError: string | null;
  unreadable: boolean;
  onOpen: (issue: BuilderIssue) => void;
  id: string;
  testId: string;
}

export function IssuesList({ issues, checking, validText, checkError, unreadable, onOpen, id, testId }: IssuesListProps) {
  const { t } = useTranslation();
  const { errors, warnings } = issueCounts(issues);
  const state = errors > 0 ? 'errors' : checking ? 'checking' : warnings > 0 ? 'warnings' : 'valid';
  const parts: string[] = [];
  if (errors > 0) parts.push(t('builders.status.errors', { count: errors }));
  if (warnings > 0) parts.push(t('builders.status.warnings', { count: warnings }));
  const icon = state === 'errors' ? <CloseCircleFilled /> : state === 'checking' ? <LoadingOutlined /> : state === 'warnings' ? <WarningFilled /> : <CheckCircleFilled />;
  const where = (i: BuilderIssue) =>
    i.line !== undefined
      ? i.column !== undefined
        ? t('builders.issue.where_line_col', { line: i.line, column: i.column })
        : t('builders.issue.where_line', { line: i.line })
      : i.path !== ''
        ? t('builders.issue.where_field', { path: i.path })
        : null;

  return (
    <section className="bo-builder-issues" aria-labelledby={`${id}-status`} data-testid={`${testId}-issues`}>
      <p id={`${id}-status`} className={`bo-builder-status bo-builder-status--${state}`} role="status" data-testid={`${testId}-status`} data-state={state} data-errors={errors} data-warnings={warnings}>
        {icon} <span>{parts.length > 0 ? parts.join(' · ') : validText}</span>
        {checking && errors + warnings > 0 ? <span className="bo-builder-status__note"> · {t('builders.status.checking')}</span> : null}
        {checking && errors + warnings === 0 ? <span className="bo-builder-status__note"> {t('builders.status.checking')}</span> : null}
      </p>
      {unreadable ? <p className="bo-builder-issues__note">{t('builders.status.unreadable')}</p> : null}
      {checkError ? <p className="bo-builder-issues__note" data-testid={`${testId}-check-failed`}>{t('builders.status.check_failed', { message: checkError })}</p> : null}
      {issues.length > 0 ? (
        <ul className="bo-builder-issues__list" aria-label={t('builders.issues')}>
          {issues.map((i, n) => (
            <li key={`${n}-${i.path}-${i.line ?? ''}`}>
              <button type="button" className={`bo-builder-issue bo-builder-issue--${i.severity}`} onClick={() => onOpen(i)} data-testid={`${testId}-issue`} data-source={i.source} data-line={i.line} data-path={i.path}>
                <Tag color={i.severity === 'error' ? 'error' : 'warning'} className="bo-builder-issue__tag">
                  {t(`builders.issue.${i.severity}`)}
                </Tag>
                <span className="bo-builder-issue__text">{issueText(i)}</span>
                <span className="bo-builder-issue__where">
                  {t(`builders.issue.source.${i.source}`)}
                  {where(i) ? ` · ${where(i)}` : ''}
                </span>
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
