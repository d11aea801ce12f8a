/**
 * Setup for every web test (jsdom): translations, the browser APIs antd needs that jsdom
 * lacks, and a clean DOM and language after each test.
 */
import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';
import { setTestLanguage } from './i18n.ts';

// ---------------------------------------------------------------- jsdom polyfills

if (!window.matchMedia) {
  // Width-based queries answer from window.innerWidth (jsdom's default is 1024), so a test can
  // set innerWidth before rendering to get the mobile or desktop layout.
  Object.defineProperty(window, 'matchMedia', {
    writable: true,
    configurable: true,
    value: (query: string): MediaQueryList => {
      const width = window.innerWidth;
      const min = /min-width:\s*(\d+)px/.exec(query);
      const max = /max-width:\s*(\d+(?:\.\d+)?)px/.exec(query);
      const matches =
        (!min || width >= Number(min[1])) && (!max || width <= Number(max[1])) && Boolean(min || max);
      return {
        matches,
        media: query,
        onchange: null,
        addListener: () => undefined,
        removeListener: () => undefined,
        addEventListener: () => undefined,
        removeEventListener: () => undefined,
        dispatchEvent: () => false,
      };
    },
  });
}

if (!('ResizeObserver' in window)) {
  class ResizeObserverStub {
    observe(): void {}
    unobserve(): void {}
    disconnect(): void {}
  }
  Object.defineProperty(window, 'ResizeObserver', {
    writable: true,
    configurable: true,
    value: ResizeObserverStub,
  });
  Object.defineProperty(globalThis, 'ResizeObserver', {
    writable: true,
    configurable: true,
    value: ResizeObserverStub,
  });
}

// jsdom throws "Not implemented" for pseudo-elements (antd measures the scrollbar with one).
const getComputedStyleOriginal = window.getComputedStyle.bind(window);
window.getComputedStyle = (element: Element, pseudoElement?: string | null) =>
  getComputedStyleOriginal(element, pseudoElement ? undefined : pseudoElement);

if (!window.scrollTo || /not implemented/i.test(String(window.scrollTo))) {
  window.scrollTo = () => undefined;
}
if (!Element.prototype.scrollIntoView) Element.prototype.scrollIntoView = () => undefined;
if (!URL.createObjectURL) URL.createObjectURL = () => 'blob:test';
if (!URL.revokeObjectURL) URL.revokeObjectURL = () => undefined;

// jsdom's Blob/File have no text() or arrayBuffer(); read them through its FileReader.
function readBlob<T>(blob: Blob, as: 'text' | 'buffer'): Promise<T> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as T);
    reader.onerror = () => reject(reader.error);
    if (as === 'text') reader.readAsText(blob);
    else reader.readAsArrayBuffer(blob);
  });
}
if (!Blob.prototype.text) {
  Blob.prototype.text = function text(this: Blob) {
    return readBlob<string>(this, 'text');
  };
}
if (!Blob.prototype.arrayBuffer) {
  Blob.prototype.arrayBuffer = function arrayBuffer(this: Blob) {
    return readBlob<ArrayBuffer>(this, 'buffer');
  };
}

// ---------------------------------------------------------------- per test

afterEach(async () => {
  cleanup();
  await setTestLanguage('en');
});
