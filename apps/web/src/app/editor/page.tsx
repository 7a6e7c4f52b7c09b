import { redirect } from "next/navigation";
import { Editor } from "~/editor/editor";
import { currentUser } from "~/server/current-user";

export const dynamic = "force-dynamic";
export const metadata = { title: "Resume editor" };

export default async function EditorPage() {
  const userId = await currentUser();
  if (!userId) redirect("/sign-in?next=/editor");
  return <Editor userId={userId} />;
}
