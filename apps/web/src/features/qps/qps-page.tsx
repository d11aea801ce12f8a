/** Placeholder: replaced by the feature's page. */
export { default } from '../being-built/being-built-page.tsx';
