/** The schedules API of a saved DataViewer (list, create, change, delete, send now). */
import type { ScheduleSettings } from '@backoffice/core/dataviewer-schedules';
import { useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api.ts';
import { useApiQuery } from '../../lib/query.ts';
import type { Schedule } from './schedule-form.ts';

const LIST_PATH = '/reports/dataviewers/:id/schedules';
const ONE_PATH = '/reports/dataviewers/:id/schedules/:scheduleId';

export function useSchedules(dataviewerId: number) {
  return useApiQuery<Schedule[]>(LIST_PATH, { params: { id: dataviewerId } }, { staleTime: 15_000 });
}

/** The saved DataViewer itself (its time zone is a new schedule's default); shares the page's cache. */
export function useScheduleDataviewer(dataviewerId: number, enabled: boolean) {
  return useApiQuery<{ id: number; name: string; definition?: { timezone?: string } }>(
    '/reports/dataviewers/:id',
    { params: { id: dataviewerId } },
    { staleTime: 60_000, enabled },
  );
}

export function useScheduleActions(dataviewerId: number) {
  const client = useQueryClient();
  const refresh = () => client.invalidateQueries({ queryKey: ['api', LIST_PATH, { id: dataviewerId }] });
  const params = (scheduleId: number) => ({ id: dataviewerId, scheduleId });
  const after = async <T,>(p: Promise<T>): Promise<T> => {
    try {
      return await p;
    } finally {
      await refresh();
    }
  };
  return {
    create: (body: ScheduleSettings) => after(api.request<Schedule>(LIST_PATH, { method: 'POST', params: { id: dataviewerId }, body })),
    update: (scheduleId: number, body: Partial<ScheduleSettings>) => after(api.request<Schedule>(ONE_PATH, { method: 'PATCH', params: params(scheduleId), body })),
    remove: (scheduleId: number) => after(api.request<{ id: number; deleted: true }>(ONE_PATH, { method: 'DELETE', params: params(scheduleId) })),
    sendNow: (scheduleId: number) => after(api.request<Schedule>(`${ONE_PATH}/send`, { method: 'POST', params: params(scheduleId) })),
  };
}
