"use client";
import { useEffect, useRef, useState } from "react";
import { LineKeepingInput } from "./line-keeping-input.tsx";

interface Props {
  id: string;
  label: string;
  items: string[];
  errors: Record<string, string>;
  onChange(items: string[]): void;
}

/**
 * An ordered list of short texts: add, remove, move up and down, all by button
 * and keyboard. The focus follows what a button did: a moved item's same
 * button (its text where that button is disabled at the end of the list), the
 * item after a removed one (else the one before, else Add), a new item's text.
 */
export function TextListEditor({ id, label, items, errors, onChange }: Props) {
  const singular = label.replace(/ies$/, "y").replace(/s$/, "").toLowerCase();
  const fieldset = useRef<HTMLFieldSetElement>(null);
  const [focusNext, setFocusNext] = useState<string | null>(null);
  useEffect(() => {
    if (focusNext === null) return;
    fieldset.current?.querySelector<HTMLElement>(`[id="${focusNext}"]`)?.focus();
    setFocusNext(null);
  }, [focusNext, items]);
  const idOf = (index: number, control = "") => `${id}-${index}${control}`;

  const move = (from: number, to: number) => {
    const next = [...items];
    const [item] = next.splice(from, 1);
    next.splice(to, 0, item!);
    onChange(next);
    const button = to < from ? "-up" : "-down";
    const atEnd = to < from ? to === 0 : to === items.length - 1;
    setFocusNext(idOf(to, atEnd ? "" : button));
  };
  const remove = (index: number) => {
    onChange(items.filter((_, j) => j !== index));
    if (items.length > 1) setFocusNext(idOf(Math.min(index, items.length - 2)));
    else setFocusNext(`${id}-add`);
  };
  const add = () => {
    onChange([...items, ""]);
    setFocusNext(idOf(items.length));
  };
  const listError = errors[id.split(".").pop()!];
  return (
    <fieldset ref={fieldset}>
      <legend>{label}</legend>
      {items.map((item, i) => {
        const inputId = idOf(i);
        const error = errors[`${id.split(".").pop()}.${i}`];
        return (
          <div key={i}>
            <div className="row">
              <label htmlFor={inputId} className="visually-hidden">
                {`${label} ${i + 1}`}
              </label>
              <LineKeepingInput
                id={inputId}
                value={item}
                aria-invalid={error ? true : undefined}
                aria-describedby={error ? `${inputId}-error` : undefined}
                onChange={(text) => onChange(items.map((old, j) => (j === i ? text : old)))}
              />
              <button
                id={idOf(i, "-up")}
                type="button"
                className="secondary"
                aria-label={`Move ${singular} ${i + 1} up`}
                disabled={i === 0}
                onClick={() => move(i, i - 1)}
              >
                ↑
              </button>
              <button
                id={idOf(i, "-down")}
                type="button"
                className="secondary"
                aria-label={`Move ${singular} ${i + 1} down`}
                disabled={i === items.length - 1}
                onClick={() => move(i, i + 1)}
              >
                ↓
              </button>
              <button
                type="button"
                className="danger"
                aria-label={`Remove ${singular} ${i + 1}`}
                onClick={() => remove(i)}
              >
                ✕
              </button>
            </div>
            {error && (
              <p id={`${inputId}-error`} className="field-error">
                {error}
              </p>
            )}
          </div>
        );
      })}
      {listError && <p className="field-error">{listError}</p>}
      <button id={`${id}-add`} type="button" className="secondary" onClick={add}>
        Add {singular}
      </button>
    </fieldset>
  );
}
