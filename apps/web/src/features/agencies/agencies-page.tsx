/**
 * Agencies (`/partners/agencies`, `/new`, `/{id}`) on the resource layer, with two inputs of their
 * own: the contacts (name, e-mail, phone; at most 10) and the advertisers (a list of names).
 */
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { agencies, MAX_AGENCY_CONTACTS } from '@backoffice/core/resources/agencies';
import { Button, Input, Select, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { listPrefetcher } from '../../resources/resource-api.ts';
import { ResourcePage } from '../../resources/resource-page.tsx';

interface Contact {
  name: string;
  email: string;
  phone: string | null;
}

function ContactsInput({ id, value = [], onChange }: { id?: string; value?: Contact[]; onChange?: (v: Contact[]) => void }) {
  const { t } = useTranslation();
  const set = (i: number, patch: Partial<Contact>) => onChange?.(value.map((c, j) => (j === i ? { ...c, ...patch } : c)));
  return (
    <div id={id} className="bo-agency-contacts" data-testid="agency-contacts">
      {value.map((c, i) => (
        <Space.Compact key={i} block className="bo-agency-contact">
          <Input aria-label={t('agency.contact_name')} placeholder={t('agency.contact_name')} value={c.name} onChange={(e) => set(i, { name: e.target.value })} />
          <Input aria-label={t('agency.contact_email')} placeholder={t('agency.contact_email')} type="email" value={c.email} onChange={(e) => set(i, { email: e.target.value })} />
          <Input aria-label={t('agency.contact_phone')} placeholder={t('agency.contact_phone')} value={c.phone ?? ''} onChange={(e) => set(i, { phone: e.target.value || null })} />
          <Button aria-label={t('resource.delete')} icon={<DeleteOutlined />} onClick={() => onChange?.(value.filter((_, j) => j !== i))} />
        </Space.Compact>
      ))}
      {value.length < MAX_AGENCY_CONTACTS ? (
        <Button icon={<PlusOutlined />} onClick={() => onChange?.([...value, { name: '', email: '', phone: null }])} data-testid="agency-contact-add">
          {t('agency.contact_add')}
        </Button>
      ) : null}
    </div>
  );
}

/** The list's first page, asked for as the navigation starts (app/routes.tsx). */
export const prefetchList = listPrefetcher(agencies);

export default function AgenciesPage() {
  const { t } = useTranslation();
  return (
    <ResourcePage
      def={agencies}
      basePath="/partners/agencies"
      titleKey="agency.title"
      newTitleKey="agency.new_title"
      inputs={{
        contacts: <ContactsInput />,
        advertisers: <Select mode="tags" tokenSeparators={[',']} open={false} suffixIcon={null} placeholder={t('agency.advertisers')} />,
      }}
    />
  );
}
