/** The shell's accessibility pass in the light theme (e2e/support/shell-a11y-suite.ts). */
import { shellA11ySuite } from '../support/shell-a11y-suite.ts';

shellA11ySuite('light');
