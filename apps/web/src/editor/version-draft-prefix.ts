/**
 * Where the drafts of a person's tailored versions are kept (useSessionDraft),
 * each under this prefix and the version's id: the editor opens the Versions
 * panel, and the panel the version's editor, again for one it finds.
 */
export const versionDraftPrefix = (userId: string) => `draft:${userId}:version-`;
