import { createElement, type FunctionComponent } from 'preact';

/**
 * A component drawn again only when `same` says its props changed: what preact/compat's `memo`
 * does, without loading compat. Compat hooks into the making of every element on the page (it
 * rewrites each element's props for React's names), which on a kitchen screen receiving an
 * order every 100 ms cost a share of every update; the screens page loads no compat at all.
 */
export function memo<P extends object>(inner: FunctionComponent<P>, same: (a: P, b: P) => boolean): FunctionComponent<P> {
  // set on each instance: @preact/signals puts a shouldComponentUpdate of its own on every component
  function changed(this: { props: P }, next: P) {
    return !same(this.props, next);
  }
  function Memo(this: { shouldComponentUpdate?: unknown }, props: P) {
    this.shouldComponentUpdate = changed;
    return createElement(inner, props);
  }
  Memo.displayName = `Memo(${inner.displayName ?? inner.name})`;
  return Memo;
}
