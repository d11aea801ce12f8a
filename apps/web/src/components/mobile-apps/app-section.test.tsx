/**
 * The app part of the SDK screens' forms in jsdom: platform, bundle and store id with their
 * placeholders and help by platform, issues at the screen's own paths, the screen's own columns in
 * place, and each change reported on its own.
 */
import type { BuilderIssue } from '@backoffice/core/builders/common';
import { fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Col, Form } from 'antd';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { initI18n, loadScreenCatalogues } from '../../lib/i18n.ts';
import { AppSection, type AppSectionProps } from './app-section.tsx';

function renderSection(props: Partial<AppSectionProps> = {}) {
  const handlers = { onPlatform: vi.fn(), onBundle: vi.fn(), onStoreId: vi.fn() };
  render(
    <Form layout="vertical" component="div">
      <AppSection
        title="App"
        app={{ platform: 'ios', bundle: 'com.example.reader', storeId: 'id123' }}
        issues={[]}
        paths={{ bundle: 'app.bundle', storeId: 'app.store_id' }}
        testId="sdk"
        {...handlers}
        {...props}
      />
    </Form>,
  );
  return handlers;
}

describe('AppSection', () => {
  // The issues' texts come from the app's i18n instance (field-issue.ts), as in the app.
  beforeAll(async () => {
    initI18n('en');
    await loadScreenCatalogues();
  });

  it('shows the platform, the bundle and the store id, required on iOS, with iOS placeholders', () => {
    renderSection();
    expect(screen.getByRole('heading', { name: 'App' })).toBeTruthy();
    const platform = screen.getByTestId('sdk-platform');
    expect((within(platform).getByRole('radio', { name: 'iOS' }) as HTMLInputElement).checked).toBe(true);
    const bundle = screen.getByRole('textbox', { name: 'Bundle id / package name' }) as HTMLInputElement;
    expect(bundle.value).toBe('com.example.reader');
    expect(bundle.id).toBe('builder-field-app-bundle');
    expect(bundle.placeholder).toBe('com.nimbusnews.reader');
    const store = screen.getByRole('textbox', { name: 'Store id' }) as HTMLInputElement;
    expect(store.value).toBe('id123');
    expect(store.id).toBe('builder-field-app-store_id');
    expect(store.placeholder).toBe('id1482750917');
    expect(document.querySelector('label[for="builder-field-app-store_id"]')!.className).toMatch(/required/);
  });

  it('on Android the store id is optional and its placeholder is the bundle', () => {
    renderSection({ app: { platform: 'android', bundle: 'com.example.game', storeId: '' } });
    const store = screen.getByRole('textbox', { name: 'Store id' }) as HTMLInputElement;
    expect(store.placeholder).toBe('com.example.game');
    expect(document.querySelector('label[for="builder-field-app-store_id"]')!.className).not.toMatch(
      /required/,
    );
    expect(
      (screen.getByRole('textbox', { name: 'Bundle id / package name' }) as HTMLInputElement).placeholder,
    ).toBe('com.runagames.puzzle');
  });

  it('shows the issue at each of the screen’s paths under its field', () => {
    const issues = [
      { severity: 'error', path: 'app_bundle', key: 'error.required', source: 'rules' },
      { severity: 'warning', path: 'store_id', text: 'Check the store id', source: 'rules' },
    ] as BuilderIssue[];
    renderSection({ issues, paths: { bundle: 'app_bundle', storeId: 'store_id' }, testId: 'tracking' });
    expect(screen.getByTestId('tracking-platform')).toBeTruthy();
    expect(screen.getByRole('textbox', { name: 'Bundle id / package name' }).id).toBe(
      'builder-field-app_bundle',
    );
    expect(screen.getByText('This field is required')).toBeTruthy();
    expect(screen.getByText('Check the store id')).toBeTruthy();
  });

  it('puts the screen’s own columns after the platform and after the store id', () => {
    renderSection({
      afterPlatform: <Col data-testid="own-after-platform">version</Col>,
      children: <Col data-testid="own-last">timeout</Col>,
    });
    const order = [
      ...document.querySelectorAll(
        '[data-testid="sdk-platform"], #builder-field-app-bundle, #builder-field-app-store_id, [data-testid^="own-"]',
      ),
    ].map((e) => e.getAttribute('data-testid') ?? e.id);
    expect(order).toEqual([
      'sdk-platform',
      'own-after-platform',
      'builder-field-app-bundle',
      'builder-field-app-store_id',
      'own-last',
    ]);
  });

  it('reports each change on its own', async () => {
    const user = userEvent.setup();
    const { onPlatform, onBundle, onStoreId } = renderSection();
    // antd's radio input is under its label (pointer-events: none): press the label, as a person does.
    await user.click(screen.getByText('Android'));
    expect(onPlatform).toHaveBeenCalledWith('android');
    fireEvent.change(screen.getByRole('textbox', { name: 'Bundle id / package name' }), {
      target: { value: 'com.x' },
    });
    expect(onBundle).toHaveBeenCalledWith('com.x');
    fireEvent.change(screen.getByRole('textbox', { name: 'Store id' }), { target: { value: 'id9' } });
    expect(onStoreId).toHaveBeenCalledWith('id9');
    expect(onPlatform).toHaveBeenCalledTimes(1);
  });
});
