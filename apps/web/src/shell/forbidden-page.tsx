/** Forbidden panel (spec section 2): 'Forbidden access', the explanation and a way to the dashboard. */
import { Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { ButtonLink } from './button-link.tsx';
import { Page } from './page.tsx';

export default function ForbiddenPage() {
  const { t } = useTranslation();
  const { lang } = useParams();
  return (
    <Page testId="forbidden-page">
      <Result
        status="403"
        title={<h1 className="bo-result-title">{t('forbidden.title')}</h1>}
        subTitle={t('forbidden.text')}
        extra={
          <ButtonLink type="primary" to={`/${lang}`} data-testid="back-to-dashboard">
            {t('shell.back_to_dashboard')}
          </ButtonLink>
        }
      />
    </Page>
  );
}
