/** A screen's frame inside the shell: the page title (h1) and its content. */
import { theme as antdTheme } from 'antd';
import type { ReactNode } from 'react';

export function Page({ title, children, testId }: { title?: ReactNode; children: ReactNode; testId?: string }) {
  const { token } = antdTheme.useToken();
  return (
    <div className="bo-page" data-testid={testId}>
      {title ? (
        <h1 className="bo-page__title" style={{ color: token.colorTextHeading }}>
          {title}
        </h1>
      ) : null}
      {children}
    </div>
  );
}
