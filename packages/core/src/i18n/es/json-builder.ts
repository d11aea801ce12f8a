/** Generador JSON (`/utils/jsonbuilder`): esquemas, editor de campos, mensajes de sintaxis y de esquema. */
export const jsonBuilder = {
  'json_builder.intro':
    'Escribe o pega un documento JSON y compruébalo contra un objeto de OpenRTB 2.6 o uno de nuestros esquemas de configuración. Los errores señalan su campo y su línea.',
  'json_builder.schema.openrtb_bid_request.title': 'OpenRTB 2.6 BidRequest',
  'json_builder.schema.openrtb_bid_request.description':
    'Una petición de puja completa: impresiones, sitio o app, dispositivo, usuario, normativa, cadena de suministro.',
  'json_builder.schema.openrtb_imp.title': 'OpenRTB 2.6 Imp',
  'json_builder.schema.openrtb_imp.description':
    'Una impresión de la petición: banner, vídeo, audio o nativo, suelo, PMP.',
  'json_builder.schema.openrtb_pmp.title': 'OpenRTB 2.6 Pmp',
  'json_builder.schema.openrtb_pmp.description': 'Un mercado privado: si la subasta es privada y sus deals.',
  'json_builder.schema.partner_config.title': 'Configuración de demand partner',
  'json_builder.schema.partner_config.description':
    'La integración de un demand partner: endpoint, versión de OpenRTB, timeout, límite de QPS, lo que compra, suelo por defecto, deals.',
  'json_builder.schema.ad_unit_config.title': 'Configuración de ad unit',
  'json_builder.schema.ad_unit_config.description':
    'La configuración de un ad unit: sitio, tipo de medio, tamaños, suelo, demand partners, deals, refresco.',
  'json_builder.schema_unknown': 'Elige uno de los esquemas de la lista.',
  'json_builder.document_invalid': 'El documento debe ser JSON.',
  'json_builder.schema_label': 'Esquema',
  'json_builder.schema_help': 'El servidor comprueba el documento contra este esquema.',
  'json_builder.schemas_error': 'No se han podido cargar los esquemas. La vista de código sigue funcionando.',
  'json_builder.fields_title': 'Campos de primer nivel',
  'json_builder.fields_help':
    'Edita aquí los campos de primer nivel del documento; los objetos y las listas se editan como JSON.',
  'json_builder.not_object':
    'El documento no es un objeto JSON, así que aquí no hay campos que editar. Usa la vista de código.',
  'json_builder.field_required': 'obligatorio',
  'json_builder.field_unset': 'Sin valor',
  'json_builder.field_add': 'Añadir {field}',
  'json_builder.field_remove': 'Quitar {field}',
  'json_builder.field_json_label': '{field} (JSON)',
  'json_builder.field_json_invalid': 'Todavía no es JSON válido: corrígelo para aplicar el cambio.',
  'json_builder.field_true': 'true',
  'json_builder.field_false': 'false',
  'json_builder.extra_fields': 'Otros campos',
  'json_builder.extra_fields_help': 'Campos que el esquema no define: {fields}',
  'json_builder.syntax.invalid_symbol':
    'Símbolo inesperado en la línea {line}, columna {column}: los nombres de propiedad y los textos van entre comillas dobles.',
  'json_builder.syntax.invalid_number': 'Número no válido en la línea {line}, columna {column}.',
  'json_builder.syntax.property_name_expected':
    'Se espera un nombre de propiedad entre comillas dobles en la línea {line}, columna {column}.',
  'json_builder.syntax.value_expected': 'Se espera un valor en la línea {line}, columna {column}.',
  'json_builder.syntax.colon_expected': 'Se esperan dos puntos en la línea {line}, columna {column}.',
  'json_builder.syntax.comma_expected': 'Se espera una coma en la línea {line}, columna {column}.',
  'json_builder.syntax.close_brace_expected':
    'Se espera una llave de cierre } en la línea {line}, columna {column}.',
  'json_builder.syntax.close_bracket_expected':
    'Se espera un corchete de cierre ] en la línea {line}, columna {column}.',
  'json_builder.syntax.end_expected':
    'No puede haber nada después del valor (línea {line}, columna {column}).',
  'json_builder.syntax.comment': 'JSON no admite comentarios (línea {line}, columna {column}).',
  'json_builder.syntax.unterminated_string':
    'Un texto no se cierra con comillas dobles (línea {line}, columna {column}).',
  'json_builder.syntax.invalid_escape': 'Secuencia de escape no válida en la línea {line}, columna {column}.',
  'json_builder.syntax.invalid_character':
    'Carácter no válido en un texto en la línea {line}, columna {column}.',
  'json_builder.error.required': '{path}: falta el campo obligatorio «{field}».',
  'json_builder.error.type': '{path}: debe ser de tipo {type}.',
  'json_builder.error.enum': '{path}: debe ser uno de {values}.',
  'json_builder.error.const': '{path}: debe ser {values}.',
  'json_builder.error.minimum': '{path}: debe ser como mínimo {limit}.',
  'json_builder.error.maximum': '{path}: debe ser como máximo {limit}.',
  'json_builder.error.exclusiveMinimum': '{path}: debe ser mayor que {limit}.',
  'json_builder.error.exclusiveMaximum': '{path}: debe ser menor que {limit}.',
  'json_builder.error.minItems': '{path}: necesita al menos {limit} elementos.',
  'json_builder.error.maxItems': '{path}: admite como máximo {limit} elementos.',
  'json_builder.error.minLength': '{path}: necesita al menos {limit} caracteres.',
  'json_builder.error.maxLength': '{path}: admite como máximo {limit} caracteres.',
  'json_builder.error.pattern': '{path}: no tiene el formato esperado.',
  'json_builder.error.format': '{path}: debe ser un {format} válido.',
  'json_builder.error.uniqueItems': '{path}: tiene el mismo elemento dos veces.',
  'json_builder.error.additionalProperties': '{path}: «{field}» no es un campo de este esquema.',
  'json_builder.error.minProperties': '{path}: necesita al menos {limit} campos.',
  'json_builder.error.undefined_field':
    '{path}: «{field}» no es un campo de OpenRTB 2.6 (las extensiones van en ext).',
  'json_builder.status.valid': '{schema} válido',
  'json_builder.example.0': 'Petición OpenRTB 2.6 de banner (diario, España, consentimiento TCF)',
  'json_builder.example.1': 'Imp OpenRTB 2.6 de vídeo (pre-roll in-stream, 16:9)',
  'json_builder.example.2': 'PMP OpenRTB 2.6 con dos deals',
  'json_builder.example.3': 'Configuración de partner: Helios DSP (banner y vídeo)',
  'json_builder.example.4': 'Configuración de ad unit: billboard de portada',
  'json_builder.add_field': 'Añadir un campo…',
} as const;
