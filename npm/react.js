// `import { AblationPlayground } from 'ablation-playground/react'`: the element as a React
// component. Props are the element's attributes (a switch may also be a boolean, a number a
// number), `onUpdate` / `onInput` / `onChange` hear its events, and a ref reaches the element
// itself (its methods and `.value`). No state of its own: the element owns the run, and a prop
// that changes sets the attribute, which the element answers as it answers any attribute.

import { createElement, useEffect, useImperativeHandle, useRef } from 'react';
import './index.js';
import { ATTRIBUTES, PARAMS, STATE_NAMES } from './schema.js';

/** The element's attributes beside the parameters, by their props' names. */
const OPTIONS = Object.fromEntries(ATTRIBUTES.filter((a) => a.element).map((a) => [a.option, a.name]));
/** The parameters and attributes whose words are on and off: a boolean prop says which. */
const SWITCHES = new Set([...PARAMS.filter((p) => p.switch).map((p) => p.name), ...ATTRIBUTES.filter((a) => a.kind === 'flag').map((a) => a.name)]);
/** The events, by the prop that hears each. */
const EVENTS = { onUpdate: 'playground-update', onInput: 'input', onChange: 'change' };

/** A prop's value as the attribute's text. */
function text(name, value) {
  if (typeof value === 'boolean') return SWITCHES.has(name) ? (value ? 'on' : 'off') : String(value);
  return String(value);
}

/** The props that are the component's own: the parameters, the element's options, the events. */
const OWN = new Set([...STATE_NAMES, ...Object.keys(OPTIONS), ...Object.keys(EVENTS)]);

export function AblationPlayground({ ref, children, ...props }) {
  const element = useRef(null);
  useImperativeHandle(ref, () => element.current, []);

  // the callbacks: the newest is called, without adding and removing listeners each render
  const handlers = useRef(props);
  handlers.current = props;
  useEffect(() => {
    const el = element.current;
    const listeners = Object.entries(EVENTS).map(([prop, type]) => {
      const listener = (event) => handlers.current[prop]?.(type === 'playground-update' ? event.detail : el.value, event);
      el.addEventListener(type, listener);
      return [type, listener];
    });
    return () => listeners.forEach(([type, listener]) => el.removeEventListener(type, listener));
  }, []);

  // the attributes, as text: React sets them as it renders (so that the element starts in the
  // props' state), and removes one whose prop goes (the element then falls back to its default)
  // the rest (id, className, style, aria-*, data-*, title, hidden, …) as React gives any element
  const attributes = { ref: element };
  for (const [name, value] of Object.entries(props)) if (!OWN.has(name)) attributes[name] = value;
  for (const name of STATE_NAMES) if (props[name] != null) attributes[name] = text(name, props[name]);
  for (const [prop, attribute] of Object.entries(OPTIONS)) if (props[prop] != null) attributes[attribute] = text(attribute, props[prop]);
  return createElement('ablation-playground', attributes, children);
}

export default AblationPlayground;
