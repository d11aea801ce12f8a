import { fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Form, type FormInstance } from 'antd';
import { describe, expect, it } from 'vitest';
import { FormDateInput } from './form-date-input.tsx';

/** The input in a form field `start_date`; returns a reader of the field's value. */
function renderField(start: string | null) {
  const ref: { form: FormInstance | null } = { form: null };
  function Harness() {
    const [form] = Form.useForm();
    ref.form = form;
    return (
      <Form form={form} initialValues={{ start_date: start }}>
        <Form.Item name="start_date" label="Start">
          <FormDateInput />
        </Form.Item>
      </Form>
    );
  }
  render(<Harness />);
  return () => ref.form!.getFieldValue('start_date') as unknown;
}

describe('FormDateInput', () => {
  it('shows the field’s YYYY-MM-DD text, as wide as the field', () => {
    renderField('2024-05-03');
    const input = screen.getByRole('textbox', { name: 'Start' }) as HTMLInputElement;
    expect(input.value).toBe('2024/05/03');
    expect(input.closest<HTMLElement>('.ant-picker')!.style.width).toBe('100%');
  });

  it('shows an empty text as no date', () => {
    renderField('');
    expect((screen.getByRole('textbox', { name: 'Start' }) as HTMLInputElement).value).toBe('');
  });

  it('takes a future date as ISO text, and a cleared one as null', async () => {
    const user = userEvent.setup();
    const value = renderField('');
    const input = screen.getByRole('textbox', { name: 'Start' });
    await user.click(input);
    await user.type(input, '2099/01/31{Enter}');
    expect(value()).toBe('2099-01-31');
    // The clear button only takes the pointer on hover (CSS), so press it directly.
    fireEvent.click(document.querySelector<HTMLElement>('.ant-picker-clear')!);
    expect(value()).toBeNull();
  });
});
