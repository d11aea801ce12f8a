/** /{lang}/report/{id} -> /{lang}/reports/dataviewer/{id} (spec section 2), query kept. */
import { Navigate, useLocation, useParams } from 'react-router';

export function ReportRedirect() {
  const { lang, id } = useParams();
  const { search, hash } = useLocation();
  return <Navigate to={{ pathname: `/${lang}/reports/dataviewer/${encodeURIComponent(id ?? '')}`, search, hash }} replace />;
}
