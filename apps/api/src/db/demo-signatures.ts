/**
 * Demo signatures (docs/decisions/047-signature-manager.md): two company templates (the SSP
 * company in Madrid, the default, and the performance company in Barcelona), each with a logo made
 * here (a wordmark on a solid colour, which reads in light and dark mail clients), and the saved
 * signatures of three demo people (the others open theirs prefilled from their account). Once: left
 * alone when any template exists or ever existed. Audited as the seed (no actor).
 */
import { signatureFieldsSchema, templateFieldsSchema, type SignatureInput, type TemplateInput } from '@backoffice/core/signatures';
import sharp from 'sharp';
import { processLogo } from '../modules/signatures/logo.ts';
import { SIGNATURE_ENTITY, TEMPLATE_ENTITY } from '../modules/signatures/service.ts';
import { auditIn } from '../modules/prepayments/service.ts';
import { transaction } from '../reports-data/sql.ts';
import type { Database } from './client.ts';

const LEGAL_EN =
  'This message and any attachments are confidential and intended only for the addressee. If you received it by mistake, please tell the sender and delete it. Personal data is processed under the GDPR; see https://www.adtech.example/privacy.';
const LEGAL_ES =
  'Este mensaje y sus adjuntos son confidenciales y se dirigen solo a su destinatario. Si lo ha recibido por error, comuníqueselo al remitente y bórrelo. Los datos personales se tratan conforme al RGPD; más información en https://www.adtech.example/privacy.';

interface DemoTemplate extends Omit<TemplateInput, 'logo'> {
  wordmark: string;
  background: string;
}

const TEMPLATES: DemoTemplate[] = [
  {
    name: 'Adtech Media (SSP)',
    is_default: true,
    company_name: 'Adtech Media Iberia, S.L.',
    address: 'Calle de Alcalá 21, 3º · 28014 Madrid · Spain',
    website: 'https://www.adtech.example',
    legal_en: LEGAL_EN,
    legal_es: LEGAL_ES,
    social: [
      { network: 'linkedin', url: 'https://www.linkedin.com/company/adtech-media-example' },
      { network: 'x', url: 'https://x.com/adtech_example' },
    ],
    text_color: '#333333',
    accent_color: '#1a4f8b',
    logo_width: 140,
    wordmark: 'adtech',
    background: '#1a4f8b',
  },
  {
    name: 'Adtech Performance',
    is_default: false,
    company_name: 'Adtech Performance, S.A.',
    address: 'Avinguda Diagonal 640, 6º · 08017 Barcelona · Spain',
    website: 'https://performance.adtech.example',
    legal_en: LEGAL_EN,
    legal_es: LEGAL_ES,
    social: [
      { network: 'linkedin', url: 'https://www.linkedin.com/company/adtech-performance-example' },
      { network: 'instagram', url: 'https://www.instagram.com/adtech.performance' },
    ],
    text_color: '#3a3a3a',
    accent_color: '#0f6b5c',
    logo_width: 140,
    wordmark: 'performance',
    background: '#0f6b5c',
  },
];

/** The demo people's saved signatures, by the local part of their mail. */
const SIGNATURES: Record<string, Omit<SignatureInput, 'name' | 'mail' | 'template_id'> & { template: number }> = {
  admin: { language: 'es', title: 'Directora de Operaciones', department: 'Operaciones', phones: [{ kind: 'office', number: '+34 912 345 678' }, { kind: 'mobile', number: '+34 612 345 678' }], template: 0 },
  marketing: { language: 'en', title: 'Marketing Manager', department: 'Marketing', phones: [{ kind: 'mobile', number: '+33 6 12 34 56 78' }], template: 0 },
  finance: { language: 'es', title: 'Responsable de Finanzas', department: 'Finanzas', phones: [{ kind: 'office', number: '+34 934 567 890' }], template: 1 },
};

async function wordmarkPng(text: string, background: string): Promise<string> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="420" height="120"><rect width="420" height="120" rx="16" fill="${background}"/><text x="210" y="78" text-anchor="middle" font-family="DejaVu Sans, Arial, sans-serif" font-size="${text.length > 8 ? 44 : 56}" font-weight="bold" fill="#ffffff">${text}</text></svg>`;
  const png = await sharp(Buffer.from(svg)).png().toBuffer();
  return `data:image/png;base64,${png.toString('base64')}`;
}

export async function seedDemoSignatures(database: Database): Promise<void> {
  const logos = await Promise.all(TEMPLATES.map((t) => wordmarkPng(t.wordmark, t.background).then(processLogo)));
  await transaction(database, async (q) => {
    // Once: not again after someone deleted the demo templates (their audit entries remain).
    const [any] = await q(`SELECT 1 FROM signature_templates UNION ALL SELECT 1 FROM audit_log WHERE entity = '${TEMPLATE_ENTITY}' LIMIT 1`);
    if (any) return;
    const ids: number[] = [];
    // The templates are the administrator's work (the demo's Carmen Ortega), when she exists.
    const [owner] = await q<{ id: number }>(`SELECT id FROM users WHERE mail LIKE 'admin@%' ORDER BY id LIMIT 1`);
    for (const [i, demo] of TEMPLATES.entries()) {
      const input: Record<string, unknown> = { ...demo };
      delete input.wordmark;
      delete input.background;
      const t = templateFieldsSchema.parse(input);
      const logo = logos[i]!;
      const [row] = await q<{ id: number }>(
        `INSERT INTO signature_templates (name, is_default, company_name, address, website, legal_en, legal_es, social, text_color, accent_color, logo_width,
           logo_png, logo_hash, logo_pixel_width, logo_pixel_height, created_by, updated_by, updated_at, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9, $10, $11, $12, $13, $14, $15, $16, $16, now() - interval '20 days', now() - interval '20 days') RETURNING id`,
        [t.name, t.is_default, t.company_name, t.address, t.website, t.legal_en, t.legal_es, JSON.stringify(t.social), t.text_color, t.accent_color, t.logo_width, logo.png.toString('base64'), logo.hash, logo.width, logo.height, owner?.id ?? null],
      );
      ids.push(Number(row!.id));
      await auditIn(q, null, { action: 'signature_template.create', entity: TEMPLATE_ENTITY, entityId: Number(row!.id), after: { ...t, logo: undefined } });
    }
    for (const [local, demo] of Object.entries(SIGNATURES)) {
      const [user] = await q<{ id: number; name: string; mail: string }>(`SELECT id, name, mail FROM users WHERE mail LIKE $1 || '@%' ORDER BY id LIMIT 1`, [local]);
      if (!user) continue;
      const { template, ...rest } = demo;
      const s = signatureFieldsSchema.parse({ ...rest, name: user.name, mail: user.mail, template_id: ids[template] ?? null });
      await q(
        `INSERT INTO signatures (user_id, template_id, language, name, title, department, phones, mail, updated_by, updated_at, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8, $1, now() - interval '6 days', now() - interval '6 days') ON CONFLICT (user_id) DO NOTHING`,
        [user.id, s.template_id, s.language, s.name, s.title, s.department, JSON.stringify(s.phones), s.mail],
      );
      await auditIn(q, null, { action: 'signature.create', entity: SIGNATURE_ENTITY, entityId: user.id, after: s });
    }
  });
}
