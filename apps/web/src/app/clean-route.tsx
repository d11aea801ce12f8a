/** /clean (spec section 2): clears local storage, logs out and goes to the locale root. */
import { resolveLocale } from '@backoffice/core/locale';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { useSession } from '../lib/session-store.ts';

export function CleanRoute() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  useEffect(() => {
    const locale = resolveLocale('/clean', document.cookie);
    useSession.getState().clear();
    localStorage.clear();
    sessionStorage.clear();
    queryClient.clear();
    navigate(`/${locale}`, { replace: true });
  }, [navigate, queryClient]);
  return null;
}
