/**
 * Every builder the API serves (issue 25; docs/decisions/037-builders.md): its pure definition
 * from packages/core (the same code the screen runs) and, where a standard's validator checks the
 * output beyond the builder's own rules (the VAST XSD, a JSON Schema), that check. One line per
 * builder; the routes (routes.ts) read nothing else.
 */
import type { BuilderDefinition, BuilderIssue, BuilderKind, BuilderOutput } from '@backoffice/core/builders/common';
import { adunitBuilder } from '@backoffice/core/builders/adunit';
import { jsonBuilder } from '@backoffice/core/builders/json';
import { validateJsonOutput } from './json-schema.ts';
import { validateAdUnitOutput } from './prebid-adunit.ts';
import { vastBuilder } from '@backoffice/core/builders/vast';
import { validateVastOutput } from './vast-xsd.ts';
import { sdkBuilder } from '@backoffice/core/builders/sdk';
import { appTrackingBuilder } from '@backoffice/core/builders/app-tracking';
import { validateAppTrackingOutput } from './plist-check.ts';
import { jstagBuilder } from '@backoffice/core/builders/jstag';
import { playonBuilder } from '@backoffice/core/builders/playon';

export interface ServerBuilder {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each builder has its own configuration type
  definition: BuilderDefinition<any>;
  /** The standard's validator (XSD, JSON Schema): issues with the element or path named. */
  validate?: (output: BuilderOutput, config: unknown) => Promise<BuilderIssue[]>;
}

export const SERVER_BUILDERS: Partial<Record<BuilderKind, ServerBuilder>> = {
  json: { definition: jsonBuilder, validate: validateJsonOutput },
  adunit: { definition: adunitBuilder, validate: validateAdUnitOutput },
  vast: { definition: vastBuilder, validate: validateVastOutput },
  sdk: { definition: sdkBuilder },
  'app-tracking': { definition: appTrackingBuilder, validate: validateAppTrackingOutput },
  jstag: { definition: jstagBuilder },
  playon: { definition: playonBuilder },
};
