"use client";
import { useEffect, useImperativeHandle, useRef, type Ref } from "react";

/**
 * A resume page in a JSON Resume theme, in a frame of its own so that the
 * theme's styles stay in it. The frame runs no script (sandbox without
 * allow-scripts); it shares the editor's origin so that the editor can print
 * it, and may open the print dialog (allow-modals).
 *
 * On screen the frame scrolls within a fixed height. The browser's own print
 * (Ctrl-P) prints the editor, frame included, and would cut the page off at
 * that height: while printing, the frame is as tall as its page.
 */
export function ThemePreview({
  theme,
  html,
  ref,
}: {
  theme: string;
  html: string;
  ref: Ref<HTMLIFrameElement>;
}) {
  const frame = useRef<HTMLIFrameElement>(null);
  useImperativeHandle(ref, () => frame.current!, []);

  useEffect(() => {
    const print = window.matchMedia("print");
    const fitPage = (printing: boolean) => {
      const element = frame.current;
      const page = element?.contentDocument?.documentElement;
      if (!element || !page) return;
      element.style.height = "";
      // Measured at the frame's screen height, then again once it is laid out for print.
      if (printing) element.style.height = `${page.scrollHeight}px`;
    };
    // beforeprint comes before print media applies; the media change (also emulated print) after.
    const beforePrint = () => fitPage(true);
    const afterPrint = () => fitPage(print.matches);
    const mediaChange = () => fitPage(print.matches);
    window.addEventListener("beforeprint", beforePrint);
    window.addEventListener("afterprint", afterPrint);
    print.addEventListener("change", mediaChange);
    return () => {
      window.removeEventListener("beforeprint", beforePrint);
      window.removeEventListener("afterprint", afterPrint);
      print.removeEventListener("change", mediaChange);
    };
  }, []);

  return (
    <iframe
      ref={frame}
      className="preview preview-frame"
      title={`Resume preview in the ${theme} theme`}
      data-testid="theme-preview"
      sandbox="allow-same-origin allow-modals"
      srcDoc={html}
    />
  );
}
