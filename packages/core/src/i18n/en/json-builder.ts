/** JSON builder (`/utils/jsonbuilder`): schemas, the field editor, syntax and schema messages. */
export const jsonBuilder = {
  'json_builder.intro':
    'Write or paste a JSON document and check it against an OpenRTB 2.6 object or one of our configuration schemas. Errors point at their field and line.',
  'json_builder.schema.openrtb_bid_request.title': 'OpenRTB 2.6 BidRequest',
  'json_builder.schema.openrtb_bid_request.description':
    'A whole bid request: impressions, site or app, device, user, regulations, supply chain.',
  'json_builder.schema.openrtb_imp.title': 'OpenRTB 2.6 Imp',
  'json_builder.schema.openrtb_imp.description':
    'One impression of a bid request: banner, video, audio or native, floor, PMP.',
  'json_builder.schema.openrtb_pmp.title': 'OpenRTB 2.6 Pmp',
  'json_builder.schema.openrtb_pmp.description':
    'A private marketplace: whether the auction is private and its deals.',
  'json_builder.schema.partner_config.title': 'Demand partner configuration',
  'json_builder.schema.partner_config.description':
    'A demand partner’s integration: endpoint, OpenRTB version, timeout, QPS cap, what it buys, default floor, deals.',
  'json_builder.schema.ad_unit_config.title': 'Ad unit configuration',
  'json_builder.schema.ad_unit_config.description':
    'An ad unit’s setup: site, media type, sizes, floor, demand partners, deals, refresh.',
  'json_builder.schema_unknown': 'Choose one of the listed schemas.',
  'json_builder.document_invalid': 'The document must be JSON.',
  'json_builder.schema_label': 'Schema',
  'json_builder.schema_help': 'The document is checked against this schema by the server.',
  'json_builder.schemas_error': 'The schemas could not be loaded. The code view still works.',
  'json_builder.fields_title': 'Top-level fields',
  'json_builder.fields_help':
    'Edit the document’s top-level fields here; objects and lists are edited as JSON.',
  'json_builder.not_object':
    'The document is not a JSON object, so there are no fields to edit here. Use the code view.',
  'json_builder.field_required': 'required',
  'json_builder.field_unset': 'Not set',
  'json_builder.field_add': 'Add {field}',
  'json_builder.field_remove': 'Remove {field}',
  'json_builder.field_json_label': '{field} (JSON)',
  'json_builder.field_json_invalid': 'This is not valid JSON yet: fix it to apply the change.',
  'json_builder.field_true': 'true',
  'json_builder.field_false': 'false',
  'json_builder.extra_fields': 'Other fields',
  'json_builder.extra_fields_help': 'Fields the schema does not define: {fields}',
  'json_builder.syntax.invalid_symbol':
    'Unexpected symbol at line {line}, column {column}: property names and texts go in double quotes.',
  'json_builder.syntax.invalid_number': 'Invalid number at line {line}, column {column}.',
  'json_builder.syntax.property_name_expected':
    'A property name in double quotes is expected at line {line}, column {column}.',
  'json_builder.syntax.value_expected': 'A value is expected at line {line}, column {column}.',
  'json_builder.syntax.colon_expected': 'A colon is expected at line {line}, column {column}.',
  'json_builder.syntax.comma_expected': 'A comma is expected at line {line}, column {column}.',
  'json_builder.syntax.close_brace_expected':
    'A closing brace } is expected at line {line}, column {column}.',
  'json_builder.syntax.close_bracket_expected':
    'A closing bracket ] is expected at line {line}, column {column}.',
  'json_builder.syntax.end_expected': 'Nothing may follow the value (line {line}, column {column}).',
  'json_builder.syntax.comment': 'JSON has no comments (line {line}, column {column}).',
  'json_builder.syntax.unterminated_string':
    'A text is not closed with a double quote (line {line}, column {column}).',
  'json_builder.syntax.invalid_escape': 'Invalid escape sequence at line {line}, column {column}.',
  'json_builder.syntax.invalid_character': 'Invalid character in a text at line {line}, column {column}.',
  'json_builder.error.required': '{path}: the required field “{field}” is missing.',
  'json_builder.error.type': '{path}: must be of type {type}.',
  'json_builder.error.enum': '{path}: must be one of {values}.',
  'json_builder.error.const': '{path}: must be {values}.',
  'json_builder.error.minimum': '{path}: must be at least {limit}.',
  'json_builder.error.maximum': '{path}: must be at most {limit}.',
  'json_builder.error.exclusiveMinimum': '{path}: must be more than {limit}.',
  'json_builder.error.exclusiveMaximum': '{path}: must be less than {limit}.',
  'json_builder.error.minItems': '{path}: needs at least {limit} items.',
  'json_builder.error.maxItems': '{path}: takes at most {limit} items.',
  'json_builder.error.minLength': '{path}: needs at least {limit} characters.',
  'json_builder.error.maxLength': '{path}: takes at most {limit} characters.',
  'json_builder.error.pattern': '{path}: does not have the expected format.',
  'json_builder.error.format': '{path}: must be a valid {format}.',
  'json_builder.error.uniqueItems': '{path}: has the same item twice.',
  'json_builder.error.additionalProperties': '{path}: “{field}” is not a field of this schema.',
  'json_builder.error.minProperties': '{path}: needs at least {limit} fields.',
  'json_builder.error.undefined_field':
    '{path}: “{field}” is not an OpenRTB 2.6 field (extensions go in ext).',
  'json_builder.status.valid': 'Valid {schema}',
  'json_builder.example.0': 'OpenRTB 2.6 banner request (news site, Spain, TCF consent)',
  'json_builder.example.1': 'OpenRTB 2.6 video imp (in-stream pre-roll, 16:9)',
  'json_builder.example.2': 'OpenRTB 2.6 PMP with two deals',
  'json_builder.example.3': 'Partner configuration: Helios DSP (banner and video)',
  'json_builder.example.4': 'Ad unit configuration: homepage billboard',
  'json_builder.add_field': 'Add a field…',
} as const;
