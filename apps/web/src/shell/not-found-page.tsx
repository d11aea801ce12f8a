/** An address with no screen inside the shell. */
import { Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { ButtonLink } from './button-link.tsx';
import { Page } from './page.tsx';

export default function NotFoundPage() {
  const { t } = useTranslation();
  const { lang } = useParams();
  return (
    <Page testId="not-found-page">
      <Result
        status="404"
        title={<h1 className="bo-result-title">{t('shell.not_found.title')}</h1>}
        subTitle={t('shell.not_found.text')}
        extra={
          <ButtonLink type="primary" to={`/${lang}`} data-testid="back-to-dashboard">
            {t('shell.back_to_dashboard')}
          </ButtonLink>
        }
      />
    </Page>
  );
}
