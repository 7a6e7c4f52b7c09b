"use client";

interface Props {
  id: string;
  label: string;
  items: string[];
  errors: Record<string, string>;
  onChange(items: string[]): void;
}

/** An ordered list of short texts: add, remove, move up and down, all by button and keyboard. */
export function TextListEditor({ id, label, items, errors, onChange }: Props) {
  const singular = label.replace(/ies$/, "y").replace(/s$/, "").toLowerCase();
  const move = (from: number, to: number) => {
    const next = [...items];
    const [item] = next.splice(from, 1);
    next.splice(to, 0, item!);
    onChange(next);
  };
  const listError = errors[id.split(".").pop()!];
  return (
    <fieldset>
      <legend>{label}</legend>
      {items.map((item, i) => {
        const inputId = `${id}-${i}`;
        const error = errors[`${id.split(".").pop()}.${i}`];
        return (
          <div key={i}>
            <div className="row">
              <label htmlFor={inputId} className="visually-hidden">
                {`${label} ${i + 1}`}
              </label>
              <input
                id={inputId}
                value={item}
                aria-invalid={error ? true : undefined}
                aria-describedby={error ? `${inputId}-error` : undefined}
                onChange={(e) => onChange(items.map((old, j) => (j === i ? e.target.value : old)))}
              />
              <button
                type="button"
                className="secondary"
                aria-label={`Move ${singular} ${i + 1} up`}
                disabled={i === 0}
                onClick={() => move(i, i - 1)}
              >
                ↑
              </button>
              <button
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
                onClick={() => onChange(items.filter((_, j) => j !== i))}
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
      <button type="button" className="secondary" onClick={() => onChange([...items, ""])}>
        Add {singular}
      </button>
    </fieldset>
  );
}
