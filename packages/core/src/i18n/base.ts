/**
 * The catalogues' areas every page needs from its first paint: the sign-in page, the shell, the
 * fetch layer's error messages and the shared inputs. The web app ships these in its entry; the
 * screens' areas (./screens.ts) load with the signed-in shell (decision 044).
 */
import { api as enApi } from './en/api.ts';
import { common as enCommon } from './en/common.ts';
import { inputs as enInputs } from './en/inputs.ts';
import { menu as enMenu } from './en/menu.ts';
import { shell as enShell } from './en/shell.ts';
import { api as esApi } from './es/api.ts';
import { common as esCommon } from './es/common.ts';
import { inputs as esInputs } from './es/inputs.ts';
import { menu as esMenu } from './es/menu.ts';
import { shell as esShell } from './es/shell.ts';

export const baseEn = { ...enCommon, ...enMenu, ...enShell, ...enApi, ...enInputs } as const;
export const baseEs = { ...esCommon, ...esMenu, ...esShell, ...esApi, ...esInputs };
