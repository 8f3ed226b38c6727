import { useQuery } from '@tanstack/react-query';
import { useServices, useSession } from '../state/app-context';

export function unreadKey(companyUuid: string | undefined) {
  return ['notifications', 'unread', companyUuid] as const;
}

/** Number of unread notifications (the top bar badge); bumped by live notifications. */
export function useUnreadCount(): number {
  const { api } = useServices();
  const { company } = useSession();
  const query = useQuery({
    queryKey: unreadKey(company?.uuid),
    queryFn: async ({ signal }) => (await api.request('notifications.unreadCount', { signal })).data.count,
    enabled: Boolean(company),
  });
  return query.data ?? 0;
}
