/**
 * The form pieces every builder's form uses: a labelled field that shows the first issue at its
 * configuration path (or below) under it, and a titled section (styles in builders.css, which the
 * shared builder page loads).
 */
import type { BuilderIssue } from '@backoffice/core/builders/common';
import { Form } from 'antd';
import type { ReactNode } from 'react';
import { fieldDomId, fieldIssue } from './field-issue.ts';

export interface BuilderFieldProps {
  path: string;
  label: ReactNode;
  issues: readonly BuilderIssue[];
  help?: ReactNode;
  required?: boolean;
  children: ReactNode;
}

/** A labelled field with the first issue at its path (or below) under it. */
export function BuilderField({ path, label, issues, help, required, children }: BuilderFieldProps) {
  return (
    <Form.Item label={label} htmlFor={fieldDomId(path)} required={required} extra={help} {...fieldIssue(issues, path)}>
      {children}
    </Form.Item>
  );
}

/** A titled part of a builder's form; sections after the first are set off by a rule. */
export function BuilderSection({ title, children, testId }: { title: string; children: ReactNode; testId?: string }) {
  return (
    <section className="bo-builder-section" data-testid={testId}>
      <h3 className="bo-builder-section__title">{title}</h3>
      {children}
    </section>
  );
}
