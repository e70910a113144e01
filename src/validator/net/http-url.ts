/** Whether a text is an absolute http: or https: URL, the only ones basemodel sends requests to. */
export function isHttpUrl(text: string): boolean {
  try {
    const { protocol } = new URL(text);
    return protocol === "http:" || protocol === "https:";
  } catch {
    return false;
  }
}
