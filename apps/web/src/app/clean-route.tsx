/** /clean (spec section 2): clears local storage, logs out (on the server too) and goes to the locale root. */
import { resolveLocale } from '@backoffice/core/locale';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { endSessionsOnServer } from '../lib/api.ts';
import { useSession } from '../lib/session-store.ts';

export function CleanRoute() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  useEffect(() => {
    const locale = resolveLocale('/clean', document.cookie);
    const { user, original } = useSession.getState();
    endSessionsOnServer([user?.token, original?.user.token]);
    useSession.getState().clear();
    localStorage.clear();
    sessionStorage.clear();
    queryClient.clear();
    navigate(`/${locale}`, { replace: true });
  }, [navigate, queryClient]);
  return null;
}
