/** A link to an object on openstreetmap.org: a link the user may follow, never a request of the page. */
import { el } from "../shared/dom.js";

export function osmLink(type: string, id: number): HTMLAnchorElement {
  return el("a", { href: `https://www.openstreetmap.org/${type}/${id}`, target: "_blank", rel: "noopener noreferrer" }, `${type} ${id} on openstreetmap.org`);
}
