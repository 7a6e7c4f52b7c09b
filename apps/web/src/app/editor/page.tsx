import { redirect } from "next/navigation";
import { ClerkEditor } from "../../clerk/components.tsx";
import { Editor } from "../../editor/editor.tsx";
import { LocalAccount } from "../../editor/local-account.tsx";
import { clerkConfig } from "../../env.ts";
import { currentUser } from "../../server/current-user.ts";

export const dynamic = "force-dynamic";
export const metadata = { title: "Resume editor" };

export default async function EditorPage() {
  const clerk = clerkConfig();
  if (clerk) return <ClerkEditor jwtTemplate={clerk.jwtTemplate} />;
  const userId = await currentUser();
  if (!userId) redirect("/sign-in?next=/editor");
  return <Editor userId={userId} account={<LocalAccount userId={userId} />} />;
}
