import { describe, expect, it } from 'vitest';
import { en } from './i18n/catalogues.ts';
import {
  counterSchema,
  dateRangeSchema,
  dateSchema,
  dateTimeSchema,
  decimalString,
  monthSchema,
  multiSelectSchema,
  sliderSchema,
  uploadFileNameSchema,
  urlSchema,
} from './input-schemas.ts';
import { z } from 'zod';

const now = () => new Date(2024, 4, 15, 12, 0);

function issues(schema: z.ZodType, value: unknown) {
  const result = schema.safeParse(value);
  return result.success
    ? []
    : result.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
}

describe('input schemas (the API validates with the form rules)', () => {
  it('decimalString: up to 3 decimals with a dot, normalised', () => {
    expect(decimalString.parse('007.250')).toBe('7.250');
    expect(issues(decimalString, '1,5')).toEqual([{ path: '', message: 'inputs.number.invalid' }]);
    expect(issues(decimalString, '1.2345')).toHaveLength(1);
  });

  it('dateRangeSchema: order, future, min/max with the field that is wrong', () => {
    const schema = dateRangeSchema({ now });
    expect(schema.parse({ start: '2024-05-01', end: '2024-05-15', preset: 'thisMonth' })).toEqual({
      start: '2024-05-01',
      end: '2024-05-15',
      preset: 'thisMonth',
    });
    expect(issues(schema, { start: '2024-05-10', end: '2024-05-01' })).toEqual([
      { path: 'end', message: 'inputs.date_range.order' },
    ]);
    expect(issues(schema, { start: '2024-05-10', end: '2024-05-16' })).toEqual([
      { path: 'end', message: 'inputs.date.future' },
    ]);
    expect(
      issues(dateRangeSchema({ now, allowFuture: true }), { start: '2024-05-10', end: '2024-06-16' }),
    ).toEqual([]);
    expect(
      issues(dateRangeSchema({ now, min: '2024-05-05' }), { start: '2024-05-01', end: '2024-05-10' }),
    ).toEqual([{ path: 'start', message: 'inputs.date.before_min' }]);
    expect(issues(schema, { start: '2024-02-30', end: '2024-05-10' })).toEqual([
      { path: 'start', message: 'inputs.date.invalid' },
    ]);
    expect(issues(schema, { start: '2024-05-01', end: '2024-05-10', preset: 'lastYear' })).toHaveLength(1);
  });

  it('dateSchema: future blocked unless allowed', () => {
    expect(issues(dateSchema({ now }), '2024-05-16')).toEqual([{ path: '', message: 'inputs.date.future' }]);
    expect(issues(dateSchema({ now, allowFuture: true }), '2024-05-16')).toEqual([]);
    expect(issues(dateSchema({ now, max: '2024-05-10' }), '2024-05-11')).toEqual([
      { path: '', message: 'inputs.date.after_max' },
    ]);
  });

  it('monthSchema: min/max and future', () => {
    const schema = monthSchema({ now, min: { year: 2024, month: 1 } });
    expect(schema.parse({ year: 2024, month: 5 })).toEqual({ year: 2024, month: 5 });
    expect(issues(schema, { year: 2024, month: 6 })).toEqual([
      { path: '', message: 'inputs.month.out_of_range' },
    ]);
    expect(issues(schema, { year: 2023, month: 12 })).toEqual([
      { path: '', message: 'inputs.month.out_of_range' },
    ]);
    expect(issues(schema, { year: 2024, month: 13 })).toEqual([
      { path: 'month', message: expect.any(String) },
    ]);
  });

  it('urlSchema, dateTimeSchema, counter, slider, multi-select, upload name', () => {
    expect(urlSchema.parse(' https://a.example/x ')).toBe('https://a.example/x');
    expect(issues(urlSchema, 'gopher://a')).toEqual([{ path: '', message: 'inputs.url.invalid' }]);
    expect(dateTimeSchema.parse('2024-05-15 10:20')).toBe('2024-05-15T10:20:00');
    expect(issues(dateTimeSchema, '2024-05-15')).toEqual([{ path: '', message: 'inputs.datetime.invalid' }]);
    expect(counterSchema().safeParse(50).success).toBe(true);
    expect(issues(counterSchema(), 51)).toEqual([{ path: '', message: 'inputs.counter.out_of_range' }]);
    expect(issues(counterSchema(), -1)).toHaveLength(1);
    expect(counterSchema({ min: -5, allowNegative: true }).safeParse(-5).success).toBe(true);
    expect(issues(sliderSchema, 101)).toEqual([{ path: '', message: 'inputs.slider.out_of_range' }]);
    expect(issues(multiSelectSchema(z.number(), 2), [1, 2, 3])).toEqual([
      { path: '', message: 'inputs.multi_select.max' },
    ]);
    expect(issues(multiSelectSchema(z.number()), [1, 1])).toEqual([
      { path: '', message: 'inputs.multi_select.duplicate' },
    ]);
    expect(issues(uploadFileNameSchema('xlsx'), 'a.csv')).toEqual([
      { path: '', message: 'upload.xlsx.invalid' },
    ]);
  });

  it('every custom message is a translated key the API recognises', () => {
    const keys = [
      'inputs.number.invalid',
      'inputs.date_range.order',
      'inputs.date.future',
      'inputs.date.before_min',
      'inputs.date.after_max',
      'inputs.date.invalid',
      'inputs.date.disabled',
      'inputs.date_range.required',
      'inputs.month.out_of_range',
      'inputs.url.invalid',
      'inputs.datetime.invalid',
      'inputs.counter.out_of_range',
      'inputs.slider.out_of_range',
      'inputs.multi_select.max',
      'inputs.multi_select.duplicate',
      'upload.csv.invalid',
      'upload.xlsx.invalid',
    ];
    for (const key of keys) {
      expect(en, key).toHaveProperty([key]);
      // The API's issue mapper passes through messages of this shape as keys.
      expect(key).toMatch(/^[a-z_]+(\.[a-zA-Z_]+)+$/);
    }
  });

  it('produces a JSON schema for the OpenAPI document', () => {
    expect(() =>
      z.toJSONSchema(dateRangeSchema(), { target: 'draft-7', io: 'input', unrepresentable: 'any' }),
    ).not.toThrow();
    expect(() =>
      z.toJSONSchema(decimalString, { target: 'draft-7', io: 'input', unrepresentable: 'any' }),
    ).not.toThrow();
  });
});
