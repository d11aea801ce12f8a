/** The Back Office mark and name. */
import { useId } from 'react';
import { useTranslation } from 'react-i18next';

export function BrandMark({ size = 32 }: { size?: number }) {
  // A gradient id per instance: a hidden copy (display:none) would otherwise blank the others.
  const gradient = `bo-brand-${useId().replace(/[^a-zA-Z0-9_-]/g, '')}`;
  return (
    <svg width={size} height={size} viewBox="0 0 64 64" aria-hidden focusable="false">
      <defs>
        <linearGradient id={gradient} x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor="#3451d1" />
          <stop offset="1" stopColor="#7c5cff" />
        </linearGradient>
      </defs>
      <rect width="64" height="64" rx="14" fill={`url(#${gradient})`} />
      <path
        d="M18 46V18h15.5c6.4 0 10 3.1 10 8 0 3.1-1.6 5.3-4.3 6.3 3.5.9 5.8 3.5 5.8 7.2 0 5.3-4 8.5-10.8 8.5H18zm7.2-16.3h7c2.6 0 4-1.2 4-3.2s-1.4-3.1-4-3.1h-7v6.3zm0 10.6h7.8c2.8 0 4.3-1.3 4.3-3.4 0-2.2-1.5-3.4-4.3-3.4h-7.8v6.8z"
        fill="#fff"
      />
    </svg>
  );
}

export function Brand({ size = 32, showName = true, className }: { size?: number; showName?: boolean; className?: string }) {
  const { t } = useTranslation();
  return (
    <span className={['bo-brand', className].filter(Boolean).join(' ')}>
      <BrandMark size={size} />
      {showName ? <span className="bo-brand__name">{t('app.name')}</span> : <span className="bo-visually-hidden">{t('app.name')}</span>}
    </span>
  );
}
