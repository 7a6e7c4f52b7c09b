import type { Metadata, Viewport } from "next";
import { headers } from "next/headers";
import type { ReactNode } from "react";
import { ClerkProvider } from "../clerk/components.tsx";
import { clerkConfig } from "../env.ts";
import "./globals.css";

export const metadata: Metadata = {
  title: "Resume",
  description: "Keep your resume in one place; read it as JSON or Markdown.",
};

export const viewport: Viewport = { width: "device-width", initialScale: 1 };

// Every page is rendered per request: its scripts carry that response's CSP
// nonce (src/proxy.ts), and the sign-in provider is chosen at run time.
export const dynamic = "force-dynamic";

export default async function RootLayout({ children }: { children: ReactNode }) {
  const clerk = clerkConfig();
  return (
    <html lang="en">
      <body>
        {clerk ? (
          <ClerkProvider
            publishableKey={clerk.publishableKey}
            signInUrl="/sign-in"
            afterSignOutUrl="/sign-in"
            nonce={(await headers()).get("x-nonce") ?? undefined}
          >
            {children}
          </ClerkProvider>
        ) : (
          children
        )}
      </body>
    </html>
  );
}
