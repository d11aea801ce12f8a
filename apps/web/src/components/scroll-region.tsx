/**
 * A wide table that scrolls sideways on a narrow screen must be reachable with the keyboard
 * (WCAG 2.1.1; axe's scrollable-region-focusable): this makes the scrolling part of the antd
 * tables inside it focusable and names it.
 */
import { useLayoutEffect, useRef, type ReactNode } from 'react';

export function ScrollRegion({ label, children }: { label: string; children: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    for (const el of ref.current?.querySelectorAll<HTMLElement>('.ant-table-content, .ant-table-body') ??
      []) {
      if (el.tabIndex !== 0) el.tabIndex = 0;
      el.setAttribute('role', 'region');
      el.setAttribute('aria-label', label);
    }
  });
  return <div ref={ref}>{children}</div>;
}
