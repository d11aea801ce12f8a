/**
 * Schedule e-mailing of a saved DataViewer: a "Schedules" button with the number of schedules,
 * opening the drawer that lists them (everyone who can open the DataViewer) and lets the owner or
 * an ADMIN add, edit, pause, delete and send them now. The DataViewer page renders it in its
 * toolbar for a saved DataViewer.
 */
import { MailOutlined } from '@ant-design/icons';
import { Badge, Button } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSchedules } from './schedule-api.ts';
import { ScheduleDrawer } from './schedule-drawer.tsx';

export interface ScheduleButtonProps {
  /** The saved DataViewer's id. */
  dataviewerId: number;
  /** Whether the signed-in person may change this DataViewer (owner or ADMIN). */
  canEdit: boolean;
}

export function ScheduleButton({ dataviewerId, canEdit }: ScheduleButtonProps) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const list = useSchedules(dataviewerId);
  const count = list.data?.length ?? 0;
  const active = list.data?.filter((s) => s.enabled).length ?? 0;
  return (
    <>
      <Badge count={count} size="small" color={active > 0 ? 'blue' : 'gray'} offset={[-4, 4]} data-testid="dvs-count">
        <Button icon={<MailOutlined />} onClick={() => setOpen(true)} data-testid="dvs-button" aria-haspopup="dialog">
          {t('dvs.button')}
        </Button>
      </Badge>
      <ScheduleDrawer dataviewerId={dataviewerId} canEdit={canEdit} open={open} onClose={() => setOpen(false)} />
    </>
  );
}
