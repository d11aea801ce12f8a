/**
 * What the JSON builder's page gives its form: the schemas from `GET /v1/builders/json/schemas`
 * (null while loading or when they failed), and where the form writes the chosen schema so the
 * page's parse of typed code keeps it (the code holds only the document).
 */
import type { JsonSchemaEntry, JsonSchemaName } from '@backoffice/core/builders/json';
import { createContext, type RefObject } from 'react';

export interface JsonSchemasState {
  schemas: readonly JsonSchemaEntry[] | null;
  failed: boolean;
  schemaRef: RefObject<JsonSchemaName>;
}

export const JsonSchemasContext = createContext<JsonSchemasState>({ schemas: null, failed: false, schemaRef: { current: 'openrtb-2.6/Imp' } });
