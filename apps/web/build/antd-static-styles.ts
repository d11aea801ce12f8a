/**
 * antd's styles for the first screens, rendered at build time into the entry's CSS.
 *
 * antd writes its component styles at run time: the first time a component renders, it builds
 * the style objects, serialises them (stylis), hashes them and inserts a <style>. On a cold load
 * of the signed-in home that was about a tenth of the main thread's work before the first paint
 * of the page (Menu alone is 60 kB of CSS). This plugin renders the components of the sign-in
 * page, the shell and the home once in Node (react-dom/server) and extracts their styles with
 * antd's own `extractStyle`, including the map of style paths to hashes that antd reads in the
 * browser (`.data-ant-cssinjs-cache-path`): a component whose path is in the map skips all of that
 * work and uses the rules already in the stylesheet. Components not listed here still get their
 * styles at run time, as before.
 *
 * The styles do not depend on the theme: antd v6 writes them against CSS variables, and the
 * variables (light or dark, the brand colour) are still set at run time by the ConfigProvider.
 * The build fails if the extracted styles carry antd's development hash (`css-dev-only-…`), which
 * would never match the production build's class names.
 *
 * `import 'virtual:antd-static.css'` (main.tsx) is empty in the dev server, whose antd uses the
 * development hash.
 */
import { createRequire } from 'node:module';
import type * as Antd from 'antd';
import type { Plugin } from 'vite';
import { themeConfig } from '../src/lib/theme.ts';

const ANTD_STATIC_CSS = 'virtual:antd-static.css';
// Not a \0 id: Vite's CSS pipeline (bundling into the entry's stylesheet) only takes ids that
// end in .css.
const RESOLVED_ID = '/__antd-static.css';

type CreateElement = (type: unknown, props?: Record<string, unknown> | null, ...children: unknown[]) => unknown;

/** Renders the first screens' antd components in Node and returns their styles as CSS. */
async function renderAntdStyles(): Promise<string> {
  // The same module instances antd itself loads (its CommonJS build in Node), so the style cache
  // handed to the StyleProvider is the one antd's components write to.
  const require = createRequire(import.meta.url);
  const antdRequire = createRequire(require.resolve('antd'));
  const React = antdRequire('react') as { createElement: CreateElement };
  const { renderToString } = antdRequire('react-dom/server') as { renderToString: (node: unknown) => string };
  const antd = antdRequire('antd') as typeof Antd;
  const cssinjs = antdRequire('@ant-design/cssinjs') as {
    createCache: () => unknown;
    StyleProvider: unknown;
    extractStyle: (cache: unknown, options: { plain: boolean; types: string[] }) => string;
  };
  const h = React.createElement;
  const option = [{ value: 1, label: 'x' }];
  const items = [{ key: 'a', label: 'a', children: [{ key: 'b', label: 'b' }] }];
  const trigger = h('span', null, 'x');
  // What the sign-in page, the signed-in shell (top bar, sidebar, firewall and profile menus,
  // toasts) and the home render on a first load. Keep in step with those screens: a component
  // left out only costs its run-time style work (e2e/tests/dashboard.e2e.ts checks the home).
  const components = [
    h(antd.App, null),
    h(antd.message._InternalPanelDoNotUseOrYouWillBeFired, { content: 'x' }),
    h(antd.Avatar, null, 'A'),
    h(antd.Button, null, 'x'),
    h(antd.Checkbox, null),
    h(antd.Dropdown, { menu: { items } }, trigger),
    h(antd.Input, null),
    h(antd.Input.Password, null),
    h(antd.Menu, { items, mode: 'inline' }),
    h(antd.Popover, { content: 'x' }, trigger),
    h(antd.Tooltip, { title: 'x' }, trigger),
    h(antd.Segmented, { options: ['a', 'b'] }),
    h(antd.Select, { options: option }),
    h(antd.Skeleton, { active: true }),
    h(antd.Spin, null),
  ];
  const cache = cssinjs.createCache();
  renderToString(
    h(cssinjs.StyleProvider, { cache }, h(antd.ConfigProvider, { theme: themeConfig('light') }, ...components)),
  );
  const css = cssinjs.extractStyle(cache, { plain: true, types: ['style'] });
  if (!css.includes('data-ant-cssinjs-cache-path')) throw new Error('antd-static-styles: no style paths were extracted');
  if (css.includes('css-dev-only')) {
    throw new Error("antd-static-styles: antd ran in development mode (NODE_ENV is not 'production'); its hashes would not match");
  }
  return css;
}

export function antdStaticStyles(): Plugin {
  let build = false;
  return {
    name: 'backoffice-antd-static-styles',
    configResolved(config) {
      build = config.command === 'build' && config.mode === 'production';
    },
    resolveId(id) {
      // The dev server asks for the resolved id again, as a URL.
      return id === ANTD_STATIC_CSS || id === RESOLVED_ID ? RESOLVED_ID : null;
    },
    async load(id) {
      if (id !== RESOLVED_ID) return null;
      return build ? await renderAntdStyles() : '';
    },
  };
}
