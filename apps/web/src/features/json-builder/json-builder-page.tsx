/**
 * The JSON builder screen (`/utils/jsonbuilder`; issue 25, docs/decisions/039-json-and-adunit-builders.md):
 * the shared builder page (code view, the API's JSON Schema check with errors at their line,
 * versions, compare) with the schema picker and a field editor for the document's top-level fields.
 * Its own lazy chunk (app/screens.ts). The schemas come from the API: Ajv and the schema files
 * stay on the server (the CSP forbids compiling validators in the browser).
 */
import type { BuilderDefinition } from '@backoffice/core/builders/common';
import { jsonBuilder, jsonSchemaTitleKey, type JsonBuilderConfig, type JsonSchemaEntry, type JsonSchemaName } from '@backoffice/core/builders/json';
import { useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useApiQuery } from '../../lib/query.ts';
import { BuilderPage } from '../../components/builders/builder-page.tsx';
import { JsonForm } from './json-form.tsx';
import { JsonSchemasContext, type JsonSchemasState } from './json-schemas-context.ts';
import './json-builder.css';

export default function JsonBuilderPage() {
  const { t } = useTranslation();
  const schemaRef = useRef<JsonSchemaName>(jsonBuilder.defaults().schema);
  const list = useApiQuery<{ schemas: JsonSchemaEntry[] }>('builders/json/schemas', {}, { staleTime: Infinity, retry: 1 });
  const definition = useMemo<BuilderDefinition<JsonBuilderConfig>>(
    () => ({
      ...jsonBuilder,
      // Typed code holds only the document: keep the schema the form has chosen.
      parse: (code: string) => jsonBuilder.parse(code, { schema: schemaRef.current, document: null }),
      examples: () => jsonBuilder.examples().map((e, i) => ({ ...e, name: t(`json_builder.example.${i}`) })),
    }),
    [t],
  );
  const context = useMemo<JsonSchemasState>(() => ({ schemas: list.data?.schemas ?? null, failed: list.isError, schemaRef }), [list.data, list.isError]);
  return (
    <JsonSchemasContext.Provider value={context}>
      <BuilderPage
        definition={definition}
        titleKey="menu.jsonbuilder"
        introKey="json_builder.intro"
        Form={JsonForm}
        validKey="json_builder.status.valid"
        validParams={(c) => ({ schema: t(jsonSchemaTitleKey(c.schema)) })}
        testId="jsonbuilder"
      />
    </JsonSchemasContext.Provider>
  );
}
