import { useTranslation } from 'react-i18next';

/** The active UI language as a formatting locale ('es' or 'en'). */
export function useLocale(): 'en' | 'es' {
  const { i18n } = useTranslation();
  return i18n.language?.startsWith('es') ? 'es' : 'en';
}
