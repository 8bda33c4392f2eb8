/**
 * A form generated from a JSON Schema: objects, strings (formats, enums, long text), numbers,
 * booleans, arrays (add/remove), oneOf/anyOf (choose a branch), defaults, local $refs. Anything it
 * cannot render becomes a JSON field for that value, so no argument is ever out of reach.
 * Controlled: every edit produces a new value; props are never mutated.
 */

import { useSignal } from '@preact/signals';
import type { JsonObject } from '../../protocol/jsonrpc.js';

type Schema = JsonObject;
type Value = unknown;

function resolve(schema: Schema, root: Schema): Schema {
  const ref = schema.$ref;
  if (typeof ref !== 'string' || !ref.startsWith('#/')) return schema;
  let node: unknown = root;
  for (const part of ref.slice(2).split('/'))
    node = (node as Record<string, unknown> | undefined)?.[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  return typeof node === 'object' && node !== null ? (node as Schema) : schema;
}

function typeOf(schema: Schema): string | undefined {
  if (Array.isArray(schema.type)) return (schema.type as string[]).find((t) => t !== 'null');
  if (typeof schema.type === 'string') return schema.type;
  if (schema.properties) return 'object';
  return undefined;
}

/** The value with every missing property that has a default filled in (recursively for objects). */
export function withDefaults(schema: Schema, value: JsonObject, root: Schema = schema): JsonObject {
  const resolved = resolve(schema, root);
  const properties = (resolved.properties ?? {}) as Record<string, Schema>;
  const next: JsonObject = { ...value };
  for (const [key, child] of Object.entries(properties)) {
    const childSchema = resolve(child, root);
    if (next[key] === undefined && childSchema.default !== undefined)
      next[key] = structuredClone(childSchema.default);
    else if (next[key] === undefined && typeOf(childSchema) === 'object' && childSchema.properties) {
      const nested = withDefaults(childSchema, {}, root);
      if (Object.keys(nested).length > 0) next[key] = nested;
    }
  }
  return next;
}

export function SchemaForm({
  schema,
  value,
  onChange,
  idPrefix,
}: {
  schema: Schema;
  value: JsonObject;
  onChange: (next: JsonObject) => void;
  idPrefix: string;
}) {
  const properties = (resolve(schema, schema).properties ?? {}) as Record<string, Schema>;
  if (Object.keys(properties).length === 0) return <p class="tg-muted">This tool takes no arguments.</p>;
  return (
    <div class="tg-form">
      <ObjectFields
        schema={resolve(schema, schema)}
        root={schema}
        value={value}
        onChange={(next) => onChange(next as JsonObject)}
        path={idPrefix}
      />
    </div>
  );
}

interface FieldProps {
  schema: Schema;
  root: Schema;
  value: Value;
  onChange: (next: Value) => void;
  path: string;
}

function ObjectFields({ schema, root, value, onChange, path }: FieldProps) {
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  const current = (
    typeof value === 'object' && value !== null && !Array.isArray(value) ? value : {}
  ) as JsonObject;
  return (
    <>
      {Object.entries(properties).map(([key, child]) => (
        <Field
          key={key}
          name={key}
          required={required.has(key)}
          schema={resolve(child, root)}
          root={root}
          value={current[key]}
          path={`${path}-${key}`}
          onChange={(next) => {
            const copy = { ...current };
            if (next === undefined) delete copy[key];
            else copy[key] = next as JsonObject[string];
            onChange(copy);
          }}
        />
      ))}
    </>
  );
}

function Field(props: FieldProps & { name: string; required: boolean }) {
  const { schema, name, required, path } = props;
  const label = (typeof schema.title === 'string' ? schema.title : name) + (required ? ' (required)' : '');
  const help = typeof schema.description === 'string' ? schema.description : undefined;
  const helpId = help ? `${path}-help` : undefined;
  const type = typeOf(schema);
  if (type === 'object' && schema.properties)
    return (
      <fieldset class="tg-fieldset">
        <legend>{label}</legend>
        {help && <p class="tg-help">{help}</p>}
        <ObjectFields {...props} />
      </fieldset>
    );
  return (
    <div class="tg-field">
      <label for={path}>{label}</label>
      <Control {...props} describedBy={helpId} />
      {help && (
        <p id={helpId} class="tg-help">
          {help}
        </p>
      )}
    </div>
  );
}

function Control({
  schema,
  root,
  value,
  onChange,
  path,
  describedBy,
}: FieldProps & { describedBy: string | undefined }) {
  const type = typeOf(schema);
  const common = { id: path, 'aria-describedby': describedBy };
  const choices = (schema.oneOf ?? schema.anyOf) as Schema[] | undefined;
  if (Array.isArray(schema.enum)) {
    const options = schema.enum as Value[];
    const index = options.findIndex((option) => JSON.stringify(option) === JSON.stringify(value));
    return (
      <select
        {...common}
        value={index === -1 ? '' : String(index)}
        onChange={(e) => {
          const picked = (e.currentTarget as HTMLSelectElement).value;
          onChange(picked === '' ? undefined : options[Number(picked)]);
        }}
      >
        <option value="">—</option>
        {options.map((option, i) => (
          <option key={String(i)} value={String(i)}>
            {typeof option === 'string' ? option : JSON.stringify(option)}
          </option>
        ))}
      </select>
    );
  }
  if (Array.isArray(choices))
    return (
      <Choice schema={schema} root={root} value={value} onChange={onChange} path={path} choices={choices} />
    );
  if (type === 'string') {
    const text = typeof value === 'string' ? value : '';
    const set = (e: Event) => {
      const next = (e.currentTarget as HTMLInputElement).value;
      onChange(next === '' ? undefined : next);
    };
    if (typeof schema.maxLength === 'number' && schema.maxLength > 200)
      return <textarea {...common} rows={4} value={text} onInput={set} />;
    const format = schema.format;
    const inputType =
      format === 'date'
        ? 'date'
        : format === 'email'
          ? 'email'
          : format === 'uri'
            ? 'url'
            : format === 'date-time'
              ? 'datetime-local'
              : 'text';
    return <input {...common} type={inputType as 'text'} value={text} onInput={set} />;
  }
  if (type === 'number' || type === 'integer')
    return (
      <input
        {...common}
        type="number"
        step={type === 'integer' ? 1 : 'any'}
        {...(typeof schema.minimum === 'number' ? { min: schema.minimum } : {})}
        {...(typeof schema.maximum === 'number' ? { max: schema.maximum } : {})}
        value={typeof value === 'number' ? String(value) : ''}
        onInput={(e) => {
          const raw = (e.currentTarget as HTMLInputElement).value;
          onChange(raw === '' ? undefined : Number(raw));
        }}
      />
    );
  if (type === 'boolean')
    return (
      <input
        {...common}
        type="checkbox"
        checked={value === true}
        onChange={(e) => onChange((e.currentTarget as HTMLInputElement).checked)}
      />
    );
  if (
    type === 'array' &&
    typeof schema.items === 'object' &&
    schema.items !== null &&
    !Array.isArray(schema.items)
  )
    return <ArrayField schema={schema} root={root} value={value} onChange={onChange} path={path} />;
  return <JsonField value={value} onChange={onChange} path={path} describedBy={describedBy} />;
}

function ArrayField({ schema, root, value, onChange, path }: FieldProps) {
  const items = Array.isArray(value) ? value : [];
  const itemSchema = resolve(schema.items as Schema, root);
  return (
    <fieldset class="tg-array" id={path}>
      {items.map((item, index) => (
        <div class="tg-array-item" key={String(index)}>
          <Field
            name={`item ${index + 1}`}
            required={false}
            schema={itemSchema}
            root={root}
            value={item}
            path={`${path}-${index}`}
            onChange={(next) => onChange(items.map((old, i) => (i === index ? next : old)))}
          />
          <button type="button" onClick={() => onChange(items.filter((_, i) => i !== index))}>
            Remove item {index + 1}
          </button>
        </div>
      ))}
      <button
        type="button"
        onClick={() =>
          onChange([
            ...items,
            itemSchema.default ??
              (typeOf(itemSchema) === 'object' ? withDefaults(itemSchema, {}, root) : undefined),
          ])
        }
      >
        Add item
      </button>
    </fieldset>
  );
}

function Choice({ root, value, onChange, path, choices }: FieldProps & { choices: Schema[] }) {
  const picked = useSignal(0);
  const branch = resolve(choices[picked.value] ?? {}, root);
  return (
    <fieldset class="tg-choice">
      <select
        id={path}
        aria-label="Which form"
        value={String(picked.value)}
        onChange={(e) => {
          picked.value = Number((e.currentTarget as HTMLSelectElement).value);
          onChange(undefined);
        }}
      >
        {choices.map((choice, i) => (
          <option key={String(i)} value={String(i)}>
            {typeof choice.title === 'string'
              ? choice.title
              : (typeOf(resolve(choice, root)) ?? `option ${i + 1}`)}
          </option>
        ))}
      </select>
      {typeOf(branch) === 'object' ? (
        <ObjectFields
          schema={branch}
          root={root}
          value={value}
          onChange={onChange}
          path={`${path}-b${picked.value}`}
        />
      ) : (
        <Control
          schema={branch}
          root={root}
          value={value}
          onChange={onChange}
          path={`${path}-b${picked.value}`}
          describedBy={undefined}
        />
      )}
    </fieldset>
  );
}

function JsonField({
  value,
  onChange,
  path,
  describedBy,
}: {
  value: Value;
  onChange: (next: Value) => void;
  path: string;
  describedBy: string | undefined;
}) {
  const text = useSignal(value === undefined ? '' : JSON.stringify(value));
  const problem = useSignal('');
  return (
    <>
      <textarea
        id={path}
        class="tg-mono"
        rows={3}
        aria-describedby={describedBy}
        aria-invalid={problem.value ? 'true' : 'false'}
        value={text.value}
        onInput={(e) => {
          text.value = (e.currentTarget as HTMLTextAreaElement).value;
          if (text.value.trim() === '') {
            problem.value = '';
            onChange(undefined);
            return;
          }
          try {
            onChange(JSON.parse(text.value));
            problem.value = '';
          } catch {
            problem.value = 'Not valid JSON yet.';
          }
        }}
      />
      {problem.value && <p class="tg-error">{problem.value}</p>}
    </>
  );
}
