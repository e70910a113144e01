/** Elements made in one expression: attributes (false or undefined leave one out) and children. */

export type Child = Node | string | number | null | undefined | false;
export type Attributes = Record<string, string | number | boolean | undefined>;

export function el<Tag extends keyof HTMLElementTagNameMap>(tag: Tag, attributes: Attributes = {}, ...children: Child[]): HTMLElementTagNameMap[Tag] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === false) continue;
    element.setAttribute(name, value === true ? "" : String(value));
  }
  append(element, ...children);
  return element;
}

export function append(parent: Element, ...children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    parent.append(typeof child === "number" ? String(child) : child);
  }
}

/** Replaces every child of `parent`. */
export function replaceChildren(parent: Element, ...children: Child[]): void {
  parent.replaceChildren();
  append(parent, ...children);
}

/** A button that does `action` when pressed (click, Enter or Space). */
export function button(label: Child, action: (event: MouseEvent) => void, attributes: Attributes = {}): HTMLButtonElement {
  const element = el("button", { type: "button", ...attributes }, label);
  element.addEventListener("click", action);
  return element;
}

let ids = 0;

/** An id no other element of the page has, for labels and descriptions. */
export function uniqueId(prefix: string): string {
  ids += 1;
  return `${prefix}-${ids}`;
}

/** A form control with its visible label. */
export function labelled<Control extends HTMLElement>(text: string, control: Control, hint?: string): HTMLLabelElement {
  const id = control.id || uniqueId("control");
  control.id = id;
  return el("label", { for: id, class: "field" }, el("span", { class: "field-name" }, text), hint ? el("span", { class: "hint" }, hint) : null, control);
}

/** Offers `blob` to the user as a file called `name`. */
export function saveFile(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const link = el("a", { href: url, download: name });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
