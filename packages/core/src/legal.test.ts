import { describe, expect, it } from 'vitest';
import { translate } from './i18n/catalogues.ts';
import {
  PLACEHOLDERS,
  diffLines,
  fillText,
  manualValueProblem,
  manualValuesErrors,
  parseBlocks,
  scanText,
  templateIssues,
  usedPlaceholders,
} from './legal.ts';

const texts = (over: Partial<Record<'title_en' | 'title_es' | 'body_en' | 'body_es', string>> = {}) => ({
  title_en: 'NDA',
  title_es: 'Acuerdo de confidencialidad',
  body_en: 'Between {{our.legal_name}} and {{counterparty.legal_name}}.',
  body_es: 'Entre {{our.legal_name}} y {{ counterparty.legal_name }}.',
  ...over,
});

describe('template text', () => {
  it('finds the placeholders of a text, spaces inside the braces allowed', () => {
    expect(scanText('{{ our.legal_name }} and {{counterparty.name}} and {{our.legal_name}}')).toEqual({
      keys: ['our.legal_name', 'counterparty.name'],
      problems: [],
    });
  });

  it('reports unknown and malformed placeholders with their line', () => {
    expect(
      scanText('line one\nVAT: {{counterparty.vat}}\n{{Counterparty Name}}\n{{our.tax_id}\nok }} here')
        .problems,
    ).toEqual([
      { key: 'legal.placeholder_unknown', line: 2, placeholder: 'counterparty.vat' },
      { key: 'legal.placeholder_malformed', line: 3, placeholder: 'Counterparty Name' },
      { key: 'legal.placeholder_malformed', line: 4 },
      { key: 'legal.placeholder_malformed', line: 5 },
    ]);
  });

  it('refuses empty titles and bodies in either language, and titles of two lines', () => {
    expect(templateIssues(texts())).toEqual([]);
    expect(
      templateIssues(texts({ body_es: '  \n ', title_en: '' })).map((i) => [i.field, i.language, i.key]),
    ).toEqual([
      ['title', 'en', 'legal.title_required'],
      ['body', 'es', 'legal.body_required'],
    ]);
    expect(templateIssues(texts({ title_es: 'Uno\nDos' }))[0]).toMatchObject({
      key: 'legal.title_one_line',
      language: 'es',
    });
  });

  it('lists the placeholders a version uses in catalogue order', () => {
    expect(usedPlaceholders(texts({ title_en: 'NDA with {{counterparty.name}}' }))).toEqual([
      'our.legal_name',
      'counterparty.name',
      'counterparty.legal_name',
    ]);
  });

  it('has a description of every placeholder in both languages', () => {
    for (const p of PLACEHOLDERS) {
      for (const locale of ['en', 'es'] as const)
        expect(translate(locale, `legal.placeholder.${p.key}`)).not.toBe(`legal.placeholder.${p.key}`);
    }
  });
});

describe('blocks', () => {
  it('numbers clauses and their paragraphs; headings restart, items are not numbered', () => {
    const blocks = parseBlocks(
      'Preamble line one\nline two.\n\n## Term\nIt starts.\n\nIt renews.\n## Payment\n- first\n- second\nAfter the list.\n\n# Schedule A\nNotices.',
    );
    expect(blocks).toEqual([
      { kind: 'paragraph', number: null, text: 'Preamble line one line two.' },
      { kind: 'clause', number: '1', text: 'Term' },
      { kind: 'paragraph', number: '1.1', text: 'It starts.' },
      { kind: 'paragraph', number: '1.2', text: 'It renews.' },
      { kind: 'clause', number: '2', text: 'Payment' },
      { kind: 'item', text: 'first' },
      { kind: 'item', text: 'second' },
      { kind: 'paragraph', number: '2.1', text: 'After the list.' },
      { kind: 'heading', text: 'Schedule A' },
      { kind: 'paragraph', number: null, text: 'Notices.' },
    ]);
  });

  it('fills placeholders and leaves unknown ones as written', () => {
    expect(
      fillText('{{ our.legal_name }} / {{counterparty.name}}', {
        'our.legal_name': 'Adtech Media Iberia, S.L.',
      }),
    ).toBe('Adtech Media Iberia, S.L. / {{counterparty.name}}');
  });
});

describe('diff', () => {
  it('marks removed and added lines', () => {
    expect(diffLines('a\nb\nc', 'a\nB\nc\nd')).toEqual([
      { op: 'same', text: 'a' },
      { op: 'removed', text: 'b' },
      { op: 'added', text: 'B' },
      { op: 'same', text: 'c' },
      { op: 'added', text: 'd' },
    ]);
  });
});

describe('typed values', () => {
  it('checks a value by its placeholder’s type', () => {
    expect(manualValueProblem('contract.start_date', '2027-01-15')).toBeNull();
    expect(manualValueProblem('contract.start_date', '2027-02-30')).toBe('legal.value_date_invalid');
    expect(manualValueProblem('contract.start_date', '15/01/2027')).toBe('legal.value_date_invalid');
    expect(manualValueProblem('deal.revenue_share', '70')).toBeNull();
    expect(manualValueProblem('deal.revenue_share', '12.55')).toBeNull();
    expect(manualValueProblem('deal.revenue_share', '0')).toBe('legal.value_percent_invalid');
    expect(manualValueProblem('deal.revenue_share', '101')).toBe('legal.value_percent_invalid');
    expect(manualValueProblem('counterparty.signatory_name', '  ')).toBe('error.required');
    expect(manualValueProblem('counterparty.signatory_name', 'x'.repeat(301))).toBe('error.too_long');
    expect(manualValueProblem('counterparty.vat', 'ES1')).toBe('legal.placeholder_unknown');
  });

  it('keeps the end date on or after the start date', () => {
    expect(
      manualValuesErrors({ 'contract.start_date': '2027-06-01', 'contract.end_date': '2027-05-31' }),
    ).toEqual({ 'values.contract.end_date': 'legal.end_before_start' });
    expect(
      manualValuesErrors({ 'contract.start_date': '2027-06-01', 'contract.end_date': '2027-06-01' }),
    ).toEqual({});
  });
});
