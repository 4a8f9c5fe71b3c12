/**
 * Wrangler's diagnostics: errors and warnings collected while a config is validated, rendered as
 * wrangler renders them (a description, then `- message` lines, then child sections such as
 * `"env.staging" environment configuration`), so a test writer sees the text `wrangler dev` prints.
 * Facts from workers-sdk `packages/workers-utils/src/config/diagnostics.ts` (wrangler 4.155.0).
 */
export class Diagnostics {
  readonly errors: string[] = [];
  readonly warnings: string[] = [];
  readonly children: Diagnostics[] = [];

  constructor(readonly description: string) {}

  /** Wrangler keeps a child only when it holds something. */
  addChild(child: Diagnostics): void {
    if (child.hasErrors() || child.hasWarnings()) this.children.push(child);
  }

  hasErrors(): boolean {
    return this.errors.length > 0 || this.children.some((c) => c.hasErrors());
  }

  hasWarnings(): boolean {
    return this.warnings.length > 0 || this.children.some((c) => c.hasWarnings());
  }

  /** Every message of one kind, this section's first, then its children's, in order. */
  all(kind: 'errors' | 'warnings'): string[] {
    return [...this[kind], ...this.children.flatMap((c) => c.all(kind))];
  }

  render(kind: 'errors' | 'warnings'): string {
    const has = (d: Diagnostics) => (kind === 'errors' ? d.hasErrors() : d.hasWarnings());
    const own = this[kind].map((m) => `- ${indent(m)}`).join('\n');
    // Each child starts with its own "\n- " and the children are joined with "\n" as well: the
    // blank line between two children is wrangler's output too.
    const children = this.children
      .map((c) => (has(c) ? `\n- ${c.render(kind)}` : ''))
      .filter((s) => s !== '')
      .join('\n');
    return indent(`${this.description}\n${own}${children}`);
  }
}

/** Lines after the first move right by two spaces; lines holding only spaces become empty. */
function indent(text: string): string {
  return text
    .split('\n')
    .map((line, i) => (i === 0 ? line : `  ${line}`).replace(/^\s*$/, ''))
    .join('\n');
}
