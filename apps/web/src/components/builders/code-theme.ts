/**
 * The code views' colours. Every token colour reaches WCAG AA (4.5:1) on its background: in light
 * mode CodeMirror's default style has orange and red under 4:1, so this is our own; in dark mode
 * one-dark's editor with its token colours, but its coral, violet and grey (tags, keywords,
 * comments, line numbers: about 3.9-4.4:1) made lighter. Part of the lazy CodeMirror code: import
 * it only from code-editor.tsx and compare-view.tsx.
 */
import { HighlightStyle, syntaxHighlighting } from '@codemirror/language';
import type { Extension } from '@codemirror/state';
import { color as one, oneDarkTheme } from '@codemirror/theme-one-dark';
import { EditorView } from '@codemirror/view';
import { tags as t } from '@lezer/highlight';

const lightHighlight = HighlightStyle.define([
  { tag: t.meta, color: '#404740' },
  { tag: t.link, textDecoration: 'underline' },
  { tag: t.heading, textDecoration: 'underline', fontWeight: 'bold' },
  { tag: t.emphasis, fontStyle: 'italic' },
  { tag: t.strong, fontWeight: 'bold' },
  { tag: t.keyword, color: '#7b1fa2' },
  { tag: [t.atom, t.bool, t.url, t.contentSeparator, t.labelName], color: '#1a4fa0' },
  { tag: [t.literal, t.inserted, t.number], color: '#116329' },
  { tag: [t.string, t.deleted, t.attributeValue], color: '#a31515' },
  { tag: [t.regexp, t.escape, t.special(t.string)], color: '#8a4600' },
  { tag: t.definition(t.variableName), color: '#0550ae' },
  { tag: t.local(t.variableName), color: '#5a32a3' },
  { tag: [t.typeName, t.namespace], color: '#0a6357' },
  { tag: t.className, color: '#116975' },
  { tag: [t.special(t.variableName), t.macroName], color: '#24577a' },
  { tag: [t.propertyName, t.definition(t.propertyName)], color: '#0b4f9e' },
  { tag: [t.tagName, t.angleBracket], color: '#116329' },
  { tag: t.attributeName, color: '#6a3aa8' },
  { tag: t.comment, color: '#57606a' },
  { tag: t.invalid, color: '#b3261e' },
]);

const coral = '#ff8f97';
const violet = '#d49cf0';
const stone = '#9aa3b3';

/** one-dark's token colours (its oneDarkHighlightStyle), with coral, violet and stone lighter. */
const darkHighlight = HighlightStyle.define([
  { tag: t.keyword, color: violet },
  { tag: [t.name, t.deleted, t.character, t.propertyName, t.macroName], color: coral },
  { tag: [t.function(t.variableName), t.labelName], color: one.malibu },
  { tag: [t.color, t.constant(t.name), t.standard(t.name)], color: one.whiskey },
  { tag: [t.definition(t.name), t.separator], color: one.ivory },
  { tag: [t.typeName, t.className, t.number, t.changed, t.annotation, t.modifier, t.self, t.namespace], color: one.chalky },
  { tag: [t.operator, t.operatorKeyword, t.url, t.escape, t.regexp, t.link, t.special(t.string)], color: one.cyan },
  { tag: [t.meta, t.comment], color: stone },
  { tag: t.strong, fontWeight: 'bold' },
  { tag: t.emphasis, fontStyle: 'italic' },
  { tag: t.strikethrough, textDecoration: 'line-through' },
  { tag: t.link, color: stone, textDecoration: 'underline' },
  { tag: t.heading, fontWeight: 'bold', color: coral },
  { tag: [t.atom, t.bool, t.special(t.variableName)], color: one.whiskey },
  { tag: [t.processingInstruction, t.string, t.inserted], color: one.sage },
  { tag: t.invalid, color: one.invalid },
]);

// More specific than one-dark's own `.cm-gutters` colour, whichever style sheet comes last.
const darkGutters = EditorView.theme({ '.cm-gutters .cm-gutterElement': { color: stone } }, { dark: true });

/** The editor theme and token colours for the app's theme. */
export function codeTheme(dark: boolean): Extension {
  return dark ? [oneDarkTheme, darkGutters, syntaxHighlighting(darkHighlight)] : syntaxHighlighting(lightHighlight);
}
