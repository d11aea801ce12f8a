/**
 * Legal tool (`/utils/legal_tool`; docs/decisions/046-legal-tool.md). Templates on the resource
 * layer (list, new, `/{id}` with details, history and the tool's own tabs: the text and its
 * versions, and generating a document), and the generated documents (`/documents`, one at
 * `/documents/{id}`), read-only, each downloadable again.
 */
import { DownloadOutlined, FileTextOutlined, ProfileOutlined } from '@ant-design/icons';
import { legalDocuments, legalTemplates, type TemplateParty } from '@backoffice/core/legal';
import { Button } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { useLeaveGuard } from '../../components/builders/use-leave-guard.ts';
import { useLocale } from '../../components/use-locale.ts';
import { useNotice } from '../../components/use-notice.ts';
import { errorText } from '../../lib/api.ts';
import { listPrefetcher, type ResourceRow } from '../../resources/resource-api.ts';
import { ResourcePage } from '../../resources/resource-page.tsx';
import { GeneratePanel } from './generate-panel.tsx';
import { useDrafts } from './drafts.ts';
import { downloadDocument } from './legal-api.ts';
import { TemplateEditor } from './template-editor.tsx';
import './legal.css';

const BASE = '/utils/legal_tool';
const DOCUMENTS = `${BASE}/documents`;

/** The list's first page, asked for as the navigation starts (app/routes.tsx). */
export const prefetchList = listPrefetcher(legalTemplates);

function DownloadButton({ row, compact }: { row: ResourceRow; compact?: boolean }) {
  const { t } = useTranslation();
  const notice = useNotice();
  const [busy, setBusy] = useState(false);
  const name = String(row.file_name ?? `${row.id}.pdf`);
  const run = async () => {
    setBusy(true);
    try {
      await downloadDocument(row.id, name);
    } catch (error) {
      void notice.error(errorText(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button
      icon={<DownloadOutlined />}
      size={compact ? 'small' : 'middle'}
      loading={busy}
      onClick={() => void run()}
      aria-label={compact ? t('legal.download_named', { name }) : undefined}
      data-testid={`legal-document-download-${row.id}`}
    >
      {compact ? null : t('legal.download')}
    </Button>
  );
}

function DocumentsPage() {
  const { t } = useTranslation();
  const locale = useLocale();
  const navigate = useNavigate();
  return (
    <ResourcePage
      def={legalDocuments}
      basePath={DOCUMENTS}
      titleKey="legal.documents_title"
      newTitleKey="legal.documents_title"
      back={{ path: DOCUMENTS, label: t('legal.back_documents') }}
      listActions={
        <Button
          icon={<ProfileOutlined />}
          onClick={() => void navigate(`/${locale}${BASE}`)}
          data-testid="legal-templates-link"
        >
          {t('legal.templates_link')}
        </Button>
      }
      extraColumns={[
        {
          key: 'download',
          title: t('legal.download'),
          render: (_: unknown, row: ResourceRow) => <DownloadButton row={row} compact />,
        },
      ]}
      rowActions={(row) => <DownloadButton row={row} />}
    />
  );
}

export default function LegalToolPage() {
  const { t } = useTranslation();
  const locale = useLocale();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  // Unsaved template texts (kept while the detail page's tabs change): ask before leaving them.
  const hasDraft = useDrafts((s) => Object.keys(s.drafts).length > 0);
  useLeaveGuard(hasDraft);
  useEffect(() => () => useDrafts.getState().clear(), []);
  if (pathname.includes(`${DOCUMENTS}`)) return <DocumentsPage />;
  return (
    <ResourcePage
      def={legalTemplates}
      basePath={BASE}
      titleKey="legal.title"
      newTitleKey="legal.new_title"
      listActions={
        <Button
          icon={<FileTextOutlined />}
          onClick={() => void navigate(`/${locale}${DOCUMENTS}`)}
          data-testid="legal-documents-link"
        >
          {t('legal.documents_link')}
        </Button>
      }
      tabs={(row) => {
        const current = typeof row.current_version === 'number' ? row.current_version : null;
        return [
          {
            key: 'text',
            label: t('legal.tab.text'),
            children: <TemplateEditor templateId={row.id} currentVersion={current} />,
          },
          {
            key: 'generate',
            label: t('legal.tab.generate'),
            children: (
              <GeneratePanel
                templateId={row.id}
                party={row.party as TemplateParty}
                currentVersion={current}
              />
            ),
          },
        ];
      }}
    />
  );
}
