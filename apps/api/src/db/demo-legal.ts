/**
 * Demo data of the legal tool: four templates (publisher agreement, demand partner insertion
 * order, terms and conditions, NDA) in English and Spanish, each with a history of versions by
 * the legal team (and the audit entries of those saves), and a few documents generated from them
 * for publishers and demand partners. Runs once, after the partners are seeded.
 */
import type { TemplateKind, TemplateParty, TemplateTexts } from '@backoffice/core/legal';
import { randomUUID } from 'node:crypto';
import { checkData, generateDocument } from '../modules/legal/service.ts';
import { query, transaction } from '../reports-data/sql.ts';
import type { Database } from './client.ts';

interface DemoTemplate {
  name: string;
  kind: TemplateKind;
  party: TemplateParty;
  description: string;
  texts: TemplateTexts;
  /** Earlier versions, oldest first: a change of the final text and its comment. */
  history: { from: string; to: string; comment: string }[];
  finalComment: string;
}

const PUBLISHER_AGREEMENT_EN = `This Publisher Agreement (the "Agreement") is made on {{contract.date}} between {{our.legal_name}}, with tax ID {{our.tax_id}} and registered office at {{our.address}} ({{our.registry}}) ("Adtech"), and {{counterparty.legal_name}}, with tax ID {{counterparty.tax_id}} and registered office at {{counterparty.address}} (the "Publisher"), operating as {{counterparty.name}}.

## Purpose
Adtech will make the Publisher's advertising inventory available to its demand partners through its supply-side platform, by programmatic auction and private deals.
The Publisher grants Adtech a non-exclusive right to sell the inventory it declares in its ads.txt and app-ads.txt files.

## Term
This Agreement starts on {{contract.start_date}} and ends on {{contract.end_date}}. It renews for successive periods of twelve months unless either party gives written notice sixty (60) days before the end of the current period.

## Revenue share and payment
The Publisher receives {{deal.revenue_share}} of the net revenue Adtech collects for the Publisher's inventory, in {{deal.currency}}.
Adtech pays each month's revenue within {{deal.payment_terms}} from the end of that month, by bank transfer. Balances under {{deal.minimum}} roll over to the following month.
Revenue from invalid traffic, as measured by Adtech or its demand partners, is not payable.

## Obligations of the Publisher
- Keep the inventory free of invalid traffic, malware and content that breaches applicable law or the IAB brand safety guidelines.
- Keep its ads.txt, app-ads.txt and sellers.json entries accurate.
- Obtain the users' consent required by the GDPR and the ePrivacy rules and pass it through the IAB TCF.

## Data protection
Each party acts as an independent controller of the personal data it processes. The parties' data processing terms are attached as Schedule A.

## Confidentiality
Each party keeps the other party's confidential information secret during the term and for three (3) years after it ends.

## Governing law
This Agreement is governed by Spanish law. The courts of Madrid have exclusive jurisdiction.

# Schedule A: Notices
Notices to the Publisher are sent to {{counterparty.email}}; notices to Adtech to {{our.email}}.`;

const PUBLISHER_AGREEMENT_ES = `El presente Contrato de Editor (el «Contrato») se firma el {{contract.date}} entre {{our.legal_name}}, con NIF {{our.tax_id}} y domicilio social en {{our.address}} ({{our.registry}}) («Adtech»), y {{counterparty.legal_name}}, con identificación fiscal {{counterparty.tax_id}} y domicilio social en {{counterparty.address}} (el «Editor»), que opera como {{counterparty.name}}.

## Objeto
Adtech pondrá el inventario publicitario del Editor a disposición de sus demand partners a través de su plataforma de oferta, mediante subasta programática y acuerdos privados.
El Editor concede a Adtech el derecho no exclusivo de vender el inventario que declare en sus archivos ads.txt y app-ads.txt.

## Duración
El Contrato entra en vigor el {{contract.start_date}} y termina el {{contract.end_date}}. Se prorroga por periodos sucesivos de doce meses salvo que una de las partes lo denuncie por escrito con sesenta (60) días de antelación al fin del periodo en curso.

## Reparto de ingresos y pago
El Editor recibe el {{deal.revenue_share}} de los ingresos netos que Adtech cobre por el inventario del Editor, en {{deal.currency}}.
Adtech paga los ingresos de cada mes en un plazo de {{deal.payment_terms}} desde el fin de ese mes, por transferencia bancaria. Los saldos inferiores a {{deal.minimum}} se acumulan al mes siguiente.
No se abonan los ingresos procedentes de tráfico inválido, según la medición de Adtech o de sus demand partners.

## Obligaciones del Editor
- Mantener el inventario libre de tráfico inválido, malware y contenidos contrarios a la ley aplicable o a las directrices de seguridad de marca de IAB.
- Mantener exactas sus entradas de ads.txt, app-ads.txt y sellers.json.
- Obtener el consentimiento de los usuarios que exigen el RGPD y la normativa ePrivacy y transmitirlo mediante el IAB TCF.

## Protección de datos
Cada parte actúa como responsable independiente de los datos personales que trata. Las condiciones de tratamiento de datos figuran en el Anexo A.

## Confidencialidad
Cada parte mantendrá en secreto la información confidencial de la otra durante la vigencia del Contrato y los tres (3) años siguientes a su terminación.

## Ley aplicable
El Contrato se rige por la ley española. Los juzgados y tribunales de Madrid tienen competencia exclusiva.

# Anexo A: Notificaciones
Las notificaciones al Editor se envían a {{counterparty.email}}; las notificaciones a Adtech, a {{our.email}}.`;

const DEMAND_IO_EN = `Insertion Order between {{our.legal_name}} ({{our.tax_id}}), {{our.address}}, and {{counterparty.legal_name}} ({{counterparty.tax_id}}), {{counterparty.address}}, for the demand partner {{counterparty.name}}.

## Campaign period
From {{contract.start_date}} to {{contract.end_date}}, both included.

## Inventory and pricing
The demand partner buys inventory through the OpenRTB connection agreed between the parties, at the clearing prices of the auction, never below the floors in force.
Our fee on the gross media spend is {{deal.revenue_share}}, already deducted from the prices the demand partner sees.

## Invoicing and payment
We invoice each calendar month in {{deal.currency}}, on the first business day of the following month. Invoices are due within {{deal.payment_terms}} from their date. Months under {{deal.minimum}} are invoiced with the next one.
Discrepancies above 10 % between the parties' figures are reconciled in good faith within fifteen (15) days; below that threshold our figures prevail.

## Brand safety and data
The demand partner applies its own brand safety filters and does not use data collected through our platform to build audience segments for resale.

## Contacts
Billing: {{counterparty.email}}. Signatory for the demand partner: {{counterparty.signatory_name}}.`;

const DEMAND_IO_ES = `Orden de inserción entre {{our.legal_name}} ({{our.tax_id}}), {{our.address}}, y {{counterparty.legal_name}} ({{counterparty.tax_id}}), {{counterparty.address}}, para el demand partner {{counterparty.name}}.

## Periodo de campaña
Del {{contract.start_date}} al {{contract.end_date}}, ambos incluidos.

## Inventario y precios
El demand partner compra inventario mediante la conexión OpenRTB acordada entre las partes, a los precios de adjudicación de la subasta, nunca por debajo de los precios mínimos vigentes.
Nuestra comisión sobre la inversión bruta en medios es del {{deal.revenue_share}}, ya descontada de los precios que ve el demand partner.

## Facturación y pago
Facturamos cada mes natural en {{deal.currency}}, el primer día hábil del mes siguiente. Las facturas vencen a {{deal.payment_terms}} desde su fecha. Los meses que no alcancen {{deal.minimum}} se facturan con el siguiente.
Las discrepancias superiores al 10 % entre las cifras de las partes se concilian de buena fe en quince (15) días; por debajo de ese umbral prevalecen nuestras cifras.

## Seguridad de marca y datos
El demand partner aplica sus propios filtros de seguridad de marca y no usa datos obtenidos a través de nuestra plataforma para crear segmentos de audiencia destinados a la reventa.

## Contactos
Facturación: {{counterparty.email}}. Firmante por el demand partner: {{counterparty.signatory_name}}.`;

const TERMS_EN = `These terms and conditions apply to every service {{our.legal_name}} ({{our.tax_id}}) provides to {{counterparty.name}} ({{counterparty.legal_name}}) from {{contract.start_date}}.

## Services
We provide access to our advertising platform, its reporting and its support, as described in the documentation in force.

## Payment
Amounts are payable in {{deal.currency}} within {{deal.payment_terms}} of each invoice. Late payments accrue the interest of Spanish Law 3/2004 on late payment in commercial transactions.

## Liability
Neither party is liable for indirect damages or lost profits. Each party's total liability in a year is limited to the amounts paid or payable under these terms in that year.

## Changes
We may change these terms with thirty (30) days' notice sent to {{counterparty.email}}. Continued use of the services after that date means acceptance.

## Governing law
These terms are governed by Spanish law; the courts of Madrid have jurisdiction.`;

const TERMS_ES = `Estos términos y condiciones se aplican a todos los servicios que {{our.legal_name}} ({{our.tax_id}}) presta a {{counterparty.name}} ({{counterparty.legal_name}}) desde el {{contract.start_date}}.

## Servicios
Ofrecemos acceso a nuestra plataforma publicitaria, a sus informes y a su soporte, según la documentación vigente.

## Pago
Los importes se pagan en {{deal.currency}} en un plazo de {{deal.payment_terms}} desde cada factura. Los retrasos devengan el interés de la Ley 3/2004 de lucha contra la morosidad en las operaciones comerciales.

## Responsabilidad
Ninguna de las partes responde de daños indirectos ni de lucro cesante. La responsabilidad total de cada parte en un año se limita a los importes pagados o pagaderos conforme a estos términos en ese año.

## Cambios
Podemos modificar estos términos con treinta (30) días de preaviso enviado a {{counterparty.email}}. Seguir usando los servicios después de esa fecha supone su aceptación.

## Ley aplicable
Estos términos se rigen por la ley española; son competentes los juzgados y tribunales de Madrid.`;

const NDA_EN = `This Mutual Non-Disclosure Agreement is made on {{contract.date}} between {{our.legal_name}}, {{our.address}}, represented by {{our.signatory_name}} ({{our.signatory_title}}), and {{counterparty.legal_name}}, {{counterparty.address}}, represented by {{counterparty.signatory_name}} ({{counterparty.signatory_title}}).

## Confidential information
Confidential information is any technical, commercial or financial information one party discloses to the other, in any form, including bid data, floor prices, revenue figures and the terms of this and other agreements.

## Obligations
The receiving party uses the confidential information only to evaluate and carry out the business relationship between the parties, and discloses it only to employees and advisers who need it and are bound by equivalent obligations.

## Exclusions
- Information that is or becomes public without breach of this agreement.
- Information the receiving party already had, or develops independently.
- Information a court or authority requires to be disclosed, after notice to the other party where allowed.

## Term
This agreement starts on {{contract.start_date}} and its obligations last three (3) years after the last disclosure.`;

const NDA_ES = `El presente Acuerdo Mutuo de Confidencialidad se firma el {{contract.date}} entre {{our.legal_name}}, {{our.address}}, representada por {{our.signatory_name}} ({{our.signatory_title}}), y {{counterparty.legal_name}}, {{counterparty.address}}, representada por {{counterparty.signatory_name}} ({{counterparty.signatory_title}}).

## Información confidencial
Es información confidencial toda información técnica, comercial o financiera que una parte comunique a la otra, en cualquier forma, incluidos los datos de pujas, los precios mínimos, las cifras de ingresos y las condiciones de este y otros acuerdos.

## Obligaciones
La parte receptora usa la información confidencial solo para evaluar y desarrollar la relación comercial entre las partes, y solo la comunica a empleados y asesores que la necesiten y estén sujetos a obligaciones equivalentes.

## Exclusiones
- La información que sea o pase a ser pública sin incumplir este acuerdo.
- La información que la parte receptora ya tuviera o desarrolle de forma independiente.
- La información cuya revelación exija un juzgado o una autoridad, previo aviso a la otra parte cuando esté permitido.

## Duración
Este acuerdo entra en vigor el {{contract.start_date}} y sus obligaciones se mantienen tres (3) años después de la última comunicación.`;

/** One paragraph per line of the texts above (the template syntax joins lines without a blank one between). */
const paragraphs = (text: string) => text.replace(/([^\n])\n(?![#\-\n])/g, '$1\n\n');

export const DEMO_TEMPLATES: readonly DemoTemplate[] = [
  {
    name: 'Publisher agreement (SSP)',
    kind: 'publisher_agreement',
    party: 'publisher',
    description:
      'Standard agreement for publishers selling through the SSP: revenue share, payment, inventory quality and data protection.',
    texts: {
      title_en: 'Publisher Agreement',
      title_es: 'Contrato de Editor',
      body_en: paragraphs(PUBLISHER_AGREEMENT_EN),
      body_es: paragraphs(PUBLISHER_AGREEMENT_ES),
    },
    history: [
      {
        from: 'sixty (60) days',
        to: 'thirty (30) days',
        comment: 'First version, from the 2025 paper contract',
      },
      {
        from: 'three (3) years',
        to: 'two (2) years',
        comment: 'Notice period raised to 60 days after the review with finance',
      },
    ],
    finalComment: 'Confidentiality extended to three years (legal review, November)',
  },
  {
    name: 'Demand partner insertion order',
    kind: 'demand_io',
    party: 'demand_partner',
    description:
      'Insertion order for DSPs and networks buying through OpenRTB: campaign period, fee, invoicing and discrepancies.',
    texts: {
      title_en: 'Insertion Order',
      title_es: 'Orden de inserción',
      body_en: paragraphs(DEMAND_IO_EN),
      body_es: paragraphs(DEMAND_IO_ES),
    },
    history: [{ from: 'above 10 %', to: 'above 5 %', comment: 'First version' }],
    finalComment: 'Discrepancy threshold aligned with the billing rules (10 %)',
  },
  {
    name: 'Terms and conditions',
    kind: 'terms',
    party: 'any',
    description: 'General terms for publishers and demand partners without a negotiated agreement.',
    texts: {
      title_en: 'Terms and Conditions',
      title_es: 'Términos y condiciones',
      body_en: paragraphs(TERMS_EN),
      body_es: paragraphs(TERMS_ES),
    },
    history: [],
    finalComment: 'First version',
  },
  {
    name: 'Mutual NDA',
    kind: 'nda',
    party: 'any',
    description: 'Mutual non-disclosure agreement signed before sharing bid data or commercial terms.',
    texts: {
      title_en: 'Mutual Non-Disclosure Agreement',
      title_es: 'Acuerdo Mutuo de Confidencialidad',
      body_en: paragraphs(NDA_EN),
      body_es: paragraphs(NDA_ES),
    },
    history: [
      {
        from: 'three (3) years after the last disclosure',
        to: 'two (2) years after the last disclosure',
        comment: 'First version',
      },
    ],
    finalComment: 'Obligations extended to three years after the last disclosure',
  },
];

/** A text as it was before a change of the history (the Spanish one changes where it can). */
function earlier(texts: TemplateTexts, from: string, to: string): TemplateTexts {
  const es: Record<string, string> = {
    'sixty (60) days': 'sesenta (60) días',
    'thirty (30) days': 'treinta (30) días',
    'three (3) years': 'tres (3) años',
    'two (2) years': 'dos (2) años',
    'above 10 %': 'superiores al 10 %',
    'above 5 %': 'superiores al 5 %',
    'three (3) years after the last disclosure': 'tres (3) años después de la última comunicación',
    'two (2) years after the last disclosure': 'dos (2) años después de la última comunicación',
  };
  return {
    ...texts,
    body_en: texts.body_en.split(from).join(to),
    body_es: es[from] && es[to] ? texts.body_es.split(es[from]).join(es[to]) : texts.body_es,
  };
}

export async function seedDemoLegal(database: Database, now = Date.now()): Promise<void> {
  const [marker] = await query<{ key: string }>(
    database,
    `INSERT INTO settings (key, value) VALUES ('demo_legal_seeded', $1) ON CONFLICT DO NOTHING RETURNING key`,
    [new Date(now).toISOString()],
  );
  if (!marker) return;
  const people = await query<{ id: number; mail: string }>(
    database,
    `SELECT id, mail FROM users WHERE mail LIKE 'admin@%' OR mail LIKE 'legal@%' OR mail LIKE 'finance@%'`,
  );
  const who = (local: string) => people.find((p) => p.mail.startsWith(`${local}@`))?.id ?? null;
  // No demo user holds the LEGAL role (every demo user has the firewall control, which legal does
  // not): a `legal@` account when there is one, else the administrator, is the author.
  const legal = who('legal') ?? who('admin');
  const admin = who('admin');
  const ids = new Map<string, number>();
  const DAY = 86_400_000;
  await transaction(database, async (q) => {
    for (const [n, tpl] of DEMO_TEMPLATES.entries()) {
      // Versions oldest first: each earlier text undoes the later changes.
      const versions: { texts: TemplateTexts; comment: string }[] = [];
      let texts = tpl.texts;
      for (let i = tpl.history.length - 1; i >= 0; i--) {
        const h = tpl.history[i]!;
        const next = i === tpl.history.length - 1 ? tpl.finalComment : tpl.history[i + 1]!.comment;
        versions.unshift({ texts, comment: next });
        texts = earlier(texts, h.from, h.to);
      }
      versions.unshift({ texts, comment: tpl.history[0]?.comment ?? tpl.finalComment });
      const created = new Date(now - (120 - n * 7) * DAY);
      const [row] = await q<{ id: number }>(
        `INSERT INTO legal_templates (name, kind, party, description, current_version, created_at, updated_at, created_by, updated_by)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8) RETURNING id`,
        [
          tpl.name,
          tpl.kind,
          tpl.party,
          tpl.description,
          versions.length,
          created,
          new Date(created.getTime() + (versions.length - 1) * 20 * DAY),
          legal,
        ],
      );
      const id = Number(row!.id);
      ids.set(tpl.name, id);
      await q(
        `INSERT INTO audit_log (at, actor_id, action, entity, entity_id, after) VALUES ($1, $2, 'legal_template.create', 'legal_template', $3, $4::jsonb)`,
        [
          created,
          legal,
          String(id),
          JSON.stringify({ name: tpl.name, kind: tpl.kind, party: tpl.party, description: tpl.description }),
        ],
      );
      for (const [i, v] of versions.entries()) {
        const at = new Date(created.getTime() + i * 20 * DAY + 3_600_000);
        // The second version of the agreement was saved by the administrator, the rest by legal.
        const author = i === 1 && n === 0 ? admin : legal;
        await q(
          `INSERT INTO legal_template_versions (template_id, number, title_en, title_es, body_en, body_es, comment, author_id, created_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
          [
            id,
            i + 1,
            v.texts.title_en,
            v.texts.title_es,
            v.texts.body_en,
            v.texts.body_es,
            v.comment,
            author,
            at,
          ],
        );
        await q(
          `INSERT INTO audit_log (at, actor_id, action, entity, entity_id, before, after) VALUES ($1, $2, 'legal_template.version_create', 'legal_template', $3, $4::jsonb, $5::jsonb)`,
          [
            at,
            author,
            String(id),
            JSON.stringify({ current_version: i === 0 ? null : i }),
            JSON.stringify({ current_version: i + 1, comment: v.comment }),
          ],
        );
      }
    }
  });

  // Documents: the NDA and the terms for partners whose records are complete (typed values for the
  // dates and signatories), the insertion order for a demand partner.
  const partners = await query<{ id: number; type: 'publisher' | 'demand_partner' }>(
    database,
    `(SELECT p.id, 'demand_partner' AS type FROM demand_partners p JOIN companies c ON c.id = p.company_id
       WHERE p.side = 'ssp' ORDER BY p.id LIMIT 2)
     UNION ALL
     (SELECT p.id, 'publisher' AS type FROM publishers p JOIN companies c ON c.id = p.company_id
       WHERE p.revenue_share_pct > 0 ORDER BY p.id LIMIT 1)`,
  );
  const start = new Date(now + 7 * DAY).toISOString().slice(0, 10);
  const end = new Date(now + 372 * DAY).toISOString().slice(0, 10);
  const typed = (keys: readonly string[]) => {
    const all: Record<string, string> = {
      'contract.start_date': start,
      'contract.end_date': end,
      'our.signatory_name': 'Carmen Ortega',
      'our.signatory_title': 'Chief Executive Officer',
      'counterparty.signatory_name': 'Laura Martín',
      'counterparty.signatory_title': 'Managing Director',
    };
    return Object.fromEntries(keys.filter((k) => all[k]).map((k) => [k, all[k]!]));
  };
  const plans: { template: string; who: (typeof partners)[number] | undefined; language: 'en' | 'es' }[] = [
    { template: 'Mutual NDA', who: partners.find((p) => p.type === 'demand_partner'), language: 'en' },
    {
      template: 'Demand partner insertion order',
      who: partners.filter((p) => p.type === 'demand_partner')[1],
      language: 'es',
    },
    { template: 'Terms and conditions', who: partners.find((p) => p.type === 'publisher'), language: 'es' },
  ];
  for (const plan of plans) {
    const templateId = ids.get(plan.template);
    if (!plan.who || !templateId) continue;
    const [current] = await query<{ current_version: number }>(
      database,
      `SELECT current_version FROM legal_templates WHERE id = $1`,
      [templateId],
    );
    const check = await checkData(
      database,
      templateId,
      {
        version: current!.current_version,
        language: plan.language,
        counterparty_type: plan.who.type,
        counterparty_id: plan.who.id,
      },
      now,
    );
    const values = typed(check.missing.map((m) => m.key));
    // A record with other gaps (no legal contact, …) gets no demo document rather than a made-up value.
    if (check.missing.some((m) => values[m.key] === undefined)) continue;
    await generateDocument(
      database,
      null,
      {
        template_id: templateId,
        version: current!.current_version,
        language: plan.language,
        counterparty_type: plan.who.type,
        counterparty_id: plan.who.id,
        values,
        request_id: randomUUID(),
      },
      now,
      legal,
    );
  }
}
