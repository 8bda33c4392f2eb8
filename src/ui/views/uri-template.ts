/**
 * A resource template's variables and its URI once they are filled (RFC 6570, the forms servers
 * use: `{name}`, `{+path}`, `{#frag}`, `{/a,b}`, `{?q}`). Values are percent-encoded, so what a
 * person types never changes the URI's structure (`{+…}` keeps `/` as reserved expansion allows).
 */

const EXPRESSION = /\{([+#./;?&]?)([^}]*)\}/g;

/** The variable names of a URI template, in order, each once. */
export function templateVariables(template: string): string[] {
  const names: string[] = [];
  for (const [, , list] of template.matchAll(EXPRESSION))
    for (const raw of (list ?? '').split(',')) {
      const name = raw.replace(/[*]$|:\d+$/, '').trim();
      if (name && !names.includes(name)) names.push(name);
    }
  return names;
}

/** The template with its variables filled (an empty variable expands to nothing). */
export function expandTemplate(template: string, values: Readonly<Record<string, string>>): string {
  return template.replace(EXPRESSION, (_, operator: string, list: string) => {
    const names = list.split(',').map((raw) => raw.replace(/[*]$|:\d+$/, '').trim());
    const encode = operator === '+' || operator === '#' ? encodeURI : encodeURIComponent;
    const filled = names
      .filter((name) => values[name])
      .map((name) => ({ name, value: encode(values[name]!) }));
    if (filled.length === 0) return '';
    switch (operator) {
      case '#':
        return `#${filled.map((f) => f.value).join(',')}`;
      case '.':
        return `.${filled.map((f) => f.value).join('.')}`;
      case '/':
        return `/${filled.map((f) => f.value).join('/')}`;
      case ';':
        return filled.map((f) => `;${f.name}=${f.value}`).join('');
      case '?':
        return `?${filled.map((f) => `${f.name}=${f.value}`).join('&')}`;
      case '&':
        return `&${filled.map((f) => `${f.name}=${f.value}`).join('&')}`;
      default:
        return filled.map((f) => f.value).join(',');
    }
  });
}
