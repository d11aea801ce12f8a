import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { App } from 'antd';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setTestLanguage } from '../../test/i18n.ts';
import { AutocompleteInput, type AutocompleteFetcher } from './autocomplete-input.tsx';

// Only timeouts are faked: React's scheduler (setImmediate/MessageChannel) keeps running.
// Testing Library flushes its own setTimeout(0) through `jest.advanceTimersByTime` when it sees
// fake timers, so it gets that name for vitest's clock.
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  vi.stubGlobal('jest', { advanceTimersByTime: (ms: number) => vi.advanceTimersByTime(ms) });
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

function setup(fetcher: AutocompleteFetcher, onChange = vi.fn()) {
  const user = userEvent.setup({ delay: null });
  render(
    <App>
      <AutocompleteInput
        aria-label="network"
        url="/partners/search"
        field="network"
        fetcher={fetcher}
        onChange={onChange}
      />
    </App>,
  );
  return { user, input: screen.getByRole('combobox'), onChange };
}

async function advance(ms: number) {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });
}

const options = () =>
  [...document.querySelectorAll<HTMLElement>('.ant-select-item-option')].map((el) => el.textContent);

describe('AutocompleteInput', () => {
  it('waits for 2 characters and a 750 ms pause, then calls the url with the field and limit', async () => {
    const fetcher = vi.fn<AutocompleteFetcher>(async () => [
      { id: 7, value: 'Google AdX' },
      { id: 9, value: 'Google DV360' },
    ]);
    const { user, input, onChange } = setup(fetcher);
    await user.type(input, 'g');
    await advance(1000);
    expect(fetcher).not.toHaveBeenCalled();
    await user.type(input, 'o');
    await advance(749);
    expect(fetcher).not.toHaveBeenCalled();
    await advance(1);
    expect(fetcher).toHaveBeenCalledTimes(1);
    expect(fetcher.mock.calls[0]![0]).toBe('/partners/search');
    expect(fetcher.mock.calls[0]![1]).toEqual({ network: 'go', limit: '10' });
    await advance(50);
    expect(options()).toEqual(['Google AdX', 'Google DV360']);
    await user.click(screen.getByText('Google DV360'));
    expect(onChange).toHaveBeenLastCalledWith({ id: 9, value: 'Google DV360' });
  });

  it('debounces typing into one call and cancels a stale request', async () => {
    let resolveFirst: (v: { id: number; value: string }[]) => void = () => undefined;
    const signals: AbortSignal[] = [];
    const fetcher = vi.fn<AutocompleteFetcher>((_url, query, signal) => {
      signals.push(signal);
      if (query.network === 'goo') return new Promise((resolve) => (resolveFirst = resolve));
      return Promise.resolve([{ id: 2, value: 'Google Ad Manager' }]);
    });
    const { user, input } = setup(fetcher);
    await user.type(input, 'goo');
    await advance(750);
    expect(fetcher).toHaveBeenCalledTimes(1);
    await user.type(input, 'g');
    expect(signals[0]!.aborted).toBe(true);
    await advance(750);
    expect(fetcher).toHaveBeenCalledTimes(2);
    expect(fetcher.mock.calls[1]![1]).toEqual({ network: 'goog', limit: '10' });
    await advance(10);
    // The older answer arrives late and is ignored.
    await act(async () => resolveFirst([{ id: 1, value: 'Stale' }]));
    expect(options()).toEqual(['Google Ad Manager']);
  });

  it('shows a failure notice and empties the suggestions on error', async () => {
    await setTestLanguage('es');
    const fetcher = vi
      .fn<AutocompleteFetcher>()
      .mockResolvedValueOnce([{ id: 1, value: 'Magnite' }])
      .mockRejectedValueOnce(new Error('500'));
    const { user, input } = setup(fetcher);
    await user.type(input, 'ma');
    await advance(800);
    expect(options()).toEqual(['Magnite']);
    await user.type(input, 'g');
    await advance(800);
    expect(options()).toEqual([]);
    expect(document.body.textContent).toContain('No se han podido cargar las sugerencias');
  });

  it('passes a custom limit', async () => {
    const fetcher = vi.fn<AutocompleteFetcher>(async () => []);
    const user = userEvent.setup({ delay: null });
    render(<AutocompleteInput url="/x" field="q" limit={25} fetcher={fetcher} />);
    await user.type(screen.getByRole('combobox'), 'ab');
    await advance(750);
    expect(fetcher.mock.calls[0]![1]).toEqual({ q: 'ab', limit: '25' });
    expect(document.body.textContent).toContain('No results');
  });
});
