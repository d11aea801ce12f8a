/** What each route carries in its `handle` (read by the shell and the screens). */
export interface RouteHandle {
  /** Menu route id (core/routes.ts); its title `menu.<id>` names the screen. */
  menuId: string | null;
  screen: string;
}

export function isRouteHandle(value: unknown): value is RouteHandle {
  return value !== null && typeof value === 'object' && 'screen' in value;
}

/** The handle of the deepest matched route that has one. */
export function deepestHandle(matches: ReadonlyArray<{ handle: unknown }>): RouteHandle | null {
  for (let i = matches.length - 1; i >= 0; i -= 1) {
    const handle = matches[i]?.handle;
    if (isRouteHandle(handle)) return handle;
  }
  return null;
}
