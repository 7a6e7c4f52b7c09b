"use client";
import { useState, type InputHTMLAttributes, type TextareaHTMLAttributes } from "react";
import { LINE_BREAK } from "@app/resume/client";

type Props = Omit<InputHTMLAttributes<HTMLInputElement>, "value" | "onChange" | "type"> & {
  value: string;
  onChange(value: string): void;
};

/**
 * A one-line text field that keeps the line breaks it is given. A browser's
 * `<input>` drops them from its value, so a title or a bullet written with
 * one through the API or an import showed run together, and was saved so once
 * edited. A value that holds a line break, now or since the field showed, is
 * edited in a `<textarea>` as tall as its lines (and stays one, so the focus
 * is not lost when the last break is deleted).
 */
export function LineKeepingInput({ value, onChange, ...attributes }: Props) {
  const [keptBreak, setKeptBreak] = useState(false);
  const hasBreak = LINE_BREAK.test(value);
  if (hasBreak && !keptBreak) setKeptBreak(true);
  if (!hasBreak && !keptBreak) {
    return <input {...attributes} type="text" value={value} onChange={(e) => onChange(e.target.value)} />;
  }
  return (
    <textarea
      {...(attributes as TextareaHTMLAttributes<HTMLTextAreaElement>)}
      className="multiline-input"
      rows={value.split(LINE_BREAK).length}
      value={value}
      onChange={(e) => onChange(e.target.value)}
    />
  );
}
