/** La exportación de suelos para Prebid.js de la pantalla de suelos (docs/decisions/020-prebid-floors-export.md). */
import type { floorsPrebid as en } from '../en/floors-prebid.ts';

export const floorsPrebid: Record<keyof typeof en, string> = {
  'floors.prebid.button': 'Exportar a Prebid',
  'floors.prebid.title': 'Suelos de precio de Prebid.js',
  'floors.prebid.intro':
    'Las reglas de un editor como fichero de suelos de Prebid.js: sitio, bloque de anuncios, tipo de medio y tamaño pasan a domain, adUnitCode, mediaType y size de Prebid. Una puja que Prebid ve recibe el suelo que le dan nuestras reglas.',
  'floors.prebid.publisher': 'Editor',
  'floors.prebid.publisher_placeholder': 'Un editor, por nombre',
  'floors.prebid.publisher_unknown': 'No existe ese editor',
  'floors.prebid.currency': 'Moneda',
  'floors.prebid.currency_auto': 'La más usada en las reglas',
  'floors.prebid.version': 'Versión',
  'floors.prebid.values': 'Suelos en el fichero',
  'floors.prebid.included': 'Reglas que expresa',
  'floors.prebid.fields': 'Campos de Prebid',
  'floors.prebid.combined': 'Combinaciones',
  'floors.prebid.combined_text': '{combined} añadidas donde dos reglas se solapan; {pruned} omitidas porque Prebid ya recurre al mismo suelo',
  'floors.prebid.empty': 'Ninguna regla de este editor se puede expresar para Prebid: Prebid rechaza un fichero vacío y no aplica ningún suelo.',
  'floors.prebid.truncated':
    'Las reglas se solapan en más de {max} combinaciones: el fichero solo tiene las claves de las reglas, y donde se solapan Prebid puede aplicar otra regla que la nuestra.',
  'floors.prebid.server_only': '{count} reglas quedan en nuestro servidor (nombran un país, dispositivo, socio de demanda o deal, que Prebid no ve)',
  'floors.prebid.server_only_help': 'Ahí Prebid aplica el suelo de las demás reglas, como para una petición de país, dispositivo, socio y deal desconocidos. Por ejemplo:',
  'floors.prebid.other_currency': '{count} suelos vienen de una regla en otra moneda que {currency}: se escriben como 0 (sin suelo en Prebid; nuestro servidor los sigue aplicando)',
  'floors.prebid.soft': '{count} suelos vienen de una regla blanda: se escriben como 0, porque Prebid descarta toda puja bajo el suelo y un suelo blando solo la marca',
  'floors.prebid.zero_help': 'Si se omitieran, Prebid aplicaría ahí una regla menos específica. Por ejemplo:',
  'floors.prebid.unexpressible': '{count} reglas tienen un sitio o bloque de anuncios con «|» o «*» dentro, con los que Prebid no puede formar claves: omitidas',
  'floors.prebid.and_more': '… y {count} más',
  'floors.prebid.preview': 'El fichero',
  'floors.prebid.more_lines': '… {count} líneas más',
  'floors.prebid.download': 'Descargar',
  'floors.prebid.copy_url': 'Copiar URL',
  'floors.prebid.url_copied': 'URL copiada',
  'floors.prebid.url_copy_failed': 'No se pudo copiar la URL',
  'floors.prebid.auth_help':
    'La URL necesita el token de un usuario con sesión, como el resto de la API: el servidor del wrapper la lee con el token de un usuario que puede leer suelos y sirve el fichero en la dirección configurada en floors.endpoint.url de Prebid.',
};
