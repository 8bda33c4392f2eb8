/**
 * A form generated from a JSON Schema: objects, strings (formats, enums, long text), numbers,
 * booleans, arrays (add/remove), oneOf/anyOf (choose a branch), defaults, local $refs. Anything it
 * cannot render, and any value whose type does not fit its schema, becomes a JSON field for that
 * value: no argument is ever out of reach, and none a model proposed is ever hidden from the person.
 * Properties the schema does not declare are listed in their own flagged section (`undeclared-arguments`);
 * strings keep every character the person did not edit (`string-input`), and JSON fields show
 * hidden characters as escapes. Controlled: every edit produces a new value; props are never mutated.
 * Given the validator's issues (`issues`), each field shows its own message (aria-invalid, and the
 * message in its aria-describedby) once the person has edited it, or for every field once
 * `showAllIssues` is set (they pressed Call); a field shown as JSON also carries the issues inside it.
 */

import { useSignal } from '@preact/signals';
import { useRef } from 'preact/hooks';
import type { JsonObject } from '../../protocol/index.js';
import { DEFAULT_SCHEMA_LIMITS, resolveLocalRef, type SchemaIssue } from '../../schema/index.js';
import { ENUM_SEARCH_THRESHOLD, EnumSearch } from './enum-search.js';
import { type FormIssues, groupIssues, itemPath, keyPath, messagesAt } from './form-issues.js';
import { escapeHiddenInJson } from './hidden-characters.js';
import { StringInput } from './string-input.js';
import { extraArguments, UndeclaredArguments } from './undeclared-arguments.js';

type Schema = JsonObject;

/** The root (for local $refs) and the $refs already expanded on the way here (to stop recursion). */
interface Ctx {
  root: Schema;
  refs: ReadonlySet<string>;
}
interface Resolved {
  schema: Schema;
  ctx: Ctx;
}
type Kind = 'enum' | 'choice' | 'object' | 'array' | 'string' | 'number' | 'integer' | 'boolean' | 'json';
interface Option {
  value: unknown;
  label: string;
}

/** An empty schema: "any value", which renders as a JSON field. */
const ANY: Schema = {};

const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const display = (value: unknown) =>
  typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
const requiredSet = (schema: Schema) =>
  new Set(Array.isArray(schema.required) ? schema.required.filter((key) => typeof key === 'string') : []);

/**
 * References followed on one path before the form gives up and shows a JSON field: the validator's
 * own bound on nested references. A chain of thousands of `$ref`s (each hop copies the set of refs
 * seen, so the walk was quadratic) took over a second of the page's main thread to open.
 */
const MAX_REF_HOPS = DEFAULT_SCHEMA_LIMITS.maxRefDepth;

/**
 * Follows $ref (each at most once per path, at most MAX_REF_HOPS per path: a recursive schema or an
 * endless chain ends in a JSON field, not a loop or a freeze), unwraps a lone allOf, and collapses
 * `anyOf: [X, {type: null}]` (an optional X) into X.
 */
function resolve(input: unknown, ctx: Ctx): Resolved {
  let schema = isObject(input) ? input : ANY;
  let refs = ctx.refs;
  while (typeof schema.$ref === 'string') {
    const ref = schema.$ref;
    if (refs.has(ref) || refs.size >= MAX_REF_HOPS) return { schema: ANY, ctx: { root: ctx.root, refs } };
    const target = resolveLocalRef(ctx.root, ref);
    if (!isObject(target)) return { schema: ANY, ctx: { root: ctx.root, refs } };
    refs = new Set([...refs, ref]);
    const { $ref: _ref, ...siblings } = schema;
    schema = { ...target, ...siblings };
  }
  const here: Ctx = { root: ctx.root, refs };
  if (Array.isArray(schema.allOf) && schema.allOf.length === 1) {
    const { allOf, ...rest } = schema;
    const inner = resolve(allOf[0], here);
    return { schema: { ...inner.schema, ...rest }, ctx: inner.ctx };
  }
  for (const key of ['anyOf', 'oneOf'] as const) {
    const list = schema[key];
    if (!Array.isArray(list) || list.length !== 2) continue;
    const nonNull = list.filter((branch) => !(isObject(branch) && branch.type === 'null'));
    if (nonNull.length !== 1) continue;
    const { [key]: _branches, ...rest } = schema;
    const inner = resolve(nonNull[0], here);
    return { schema: { ...inner.schema, ...rest }, ctx: inner.ctx };
  }
  return { schema, ctx: here };
}

function typeOf(schema: Schema): string | undefined {
  if (Array.isArray(schema.type))
    return schema.type.find((type) => typeof type === 'string' && type !== 'null');
  if (typeof schema.type === 'string') return schema.type;
  if (isObject(schema.properties)) return 'object';
  if (isObject(schema.items)) return 'array';
  return undefined;
}

function choicesOf(schema: Schema): unknown[] | undefined {
  const list = schema.oneOf ?? schema.anyOf;
  return Array.isArray(list) && list.length > 0 ? list : undefined;
}

/**
 * Options per schema object: a 100,000-value enum is read once, not on every render, kind check and
 * fit check. (A schema built on the way, from a $ref with siblings, is a new object and read again.)
 */
const optionsOf = new WeakMap<Schema, Option[] | undefined>();
function enumOptions(schema: Schema): Option[] | undefined {
  if (!optionsOf.has(schema)) optionsOf.set(schema, readEnumOptions(schema));
  return optionsOf.get(schema);
}

/** Where `value` is among `options` (by JSON equality, as `same`), or -1; a lookup table for long lists. */
const indexOf = new WeakMap<Option[], Map<string, number>>();
function optionIndex(options: Option[], value: unknown): number {
  if (value === undefined) return -1;
  if (options.length <= 16) return options.findIndex((option) => same(option.value, value));
  let table = indexOf.get(options);
  if (!table) {
    table = new Map();
    for (const [i, option] of options.entries()) {
      const key = JSON.stringify(option.value);
      if (!table.has(key)) table.set(key, i);
    }
    indexOf.set(options, table);
  }
  return table.get(JSON.stringify(value)) ?? -1;
}

/** enum (with legacy enumNames), a lone const, or a oneOf/anyOf of titled consts (MCP's titled enums). */
function readEnumOptions(schema: Schema): Option[] | undefined {
  if (Array.isArray(schema.enum) && schema.enum.length > 0) {
    const names = Array.isArray(schema.enumNames) ? schema.enumNames : [];
    return schema.enum.map((value, index) => {
      const name = names[index];
      return { value, label: typeof name === 'string' ? name : display(value) };
    });
  }
  if ('const' in schema) return [{ value: schema.const, label: display(schema.const) }];
  const list = choicesOf(schema);
  if (list?.every((branch) => isObject(branch) && 'const' in branch)) {
    return (list as Schema[]).map((branch) => ({
      value: branch.const,
      label: typeof branch.title === 'string' ? branch.title : display(branch.const),
    }));
  }
  return undefined;
}

function kindOf(schema: Schema): Kind {
  if (enumOptions(schema)) return 'enum';
  if (choicesOf(schema)) return 'choice';
  const type = typeOf(schema);
  if (type === 'object')
    return isObject(schema.properties) && Object.keys(schema.properties).length > 0 ? 'object' : 'json';
  if (type === 'array') return isObject(schema.items) ? 'array' : 'json';
  if (type === 'string' || type === 'number' || type === 'integer' || type === 'boolean') return type;
  return 'json';
}

/** Whether a control of this kind can show the value faithfully; if not, the value is shown as JSON. */
function fits(kind: Kind, schema: Schema, value: unknown): boolean {
  if (value === undefined) return true;
  switch (kind) {
    case 'enum':
      return optionIndex(enumOptions(schema) ?? [], value) !== -1;
    case 'object':
      return isObject(value);
    case 'array':
      return Array.isArray(value);
    case 'string':
    case 'boolean':
      return typeof value === kind;
    case 'number':
    case 'integer':
      return typeof value === 'number';
    default:
      return true;
  }
}

/** Fills missing properties that have a default (recursively); props and the input are left untouched. */
function fillDefaults({ schema, ctx }: Resolved, value: unknown): JsonObject {
  const out: JsonObject = isObject(value) ? { ...value } : {};
  if (!isObject(schema.properties)) return out;
  const required = requiredSet(schema);
  for (const [key, raw] of Object.entries(schema.properties)) {
    const child = resolve(raw, ctx);
    const kind = kindOf(child.schema);
    const existing = out[key];
    if (existing === undefined) {
      if (child.schema.default !== undefined) out[key] = structuredClone(child.schema.default);
      // A required const has one possible value, and an unticked required checkbox reads as false.
      else if (required.has(key) && 'const' in child.schema) out[key] = structuredClone(child.schema.const);
      else if (required.has(key) && kind === 'boolean') out[key] = false;
      else if (kind === 'object') {
        const nested = fillDefaults(child, {});
        if (Object.keys(nested).length > 0) out[key] = nested;
      }
    } else if (kind === 'object' && isObject(existing)) out[key] = fillDefaults(child, existing);
  }
  return out;
}

/** The value with every missing property that has a default filled in (recursively for objects). */
export function withDefaults(schema: JsonObject, value: JsonObject): JsonObject {
  return fillDefaults(resolve(schema, { root: schema, refs: new Set() }), value);
}

/** A fresh value for a new array item or a newly chosen branch. */
function initialValue(resolved: Resolved): unknown {
  const { schema } = resolved;
  if (schema.default !== undefined) return structuredClone(schema.default);
  switch (kindOf(schema)) {
    case 'object':
      return fillDefaults(resolved, {});
    case 'array':
      return [];
    case 'boolean':
      return false;
    case 'string':
      return '';
    case 'enum':
      return enumOptions(schema)?.[0]?.value;
    case 'choice':
      return initialValue(resolve(choicesOf(schema)?.[0], resolved.ctx));
    default:
      return undefined;
  }
}

/** Ids may not contain spaces, and distinct keys must not collide: anything but [A-Za-z0-9] is escaped. */
const idPart = (key: string) => key.replace(/[^A-Za-z0-9]/g, (c) => `_${c.charCodeAt(0).toString(16)}_`);

export function SchemaForm({
  schema,
  value,
  onChange,
  idPrefix,
  issues,
  showAllIssues = false,
}: {
  schema: JsonObject;
  value: JsonObject;
  onChange: (next: JsonObject) => void;
  idPrefix: string;
  /** What the validator found wrong with `value`: each field shows its own. */
  issues?: readonly SchemaIssue[];
  /** Show every field's issues, not only those of fields the person edited. */
  showAllIssues?: boolean;
}) {
  const touched = useRef(new Set<string>());
  return (
    <FormBody
      schema={schema}
      value={value}
      onChange={onChange}
      idPrefix={idPrefix}
      // Threaded as a prop, not a context: createContext would weigh on the panel's first screen.
      issues={{ byPath: groupIssues(issues ?? []), all: showAllIssues, touched: touched.current }}
    />
  );
}

function FormBody({
  schema,
  value,
  onChange,
  idPrefix,
  issues,
}: {
  schema: JsonObject;
  value: JsonObject;
  onChange: (next: JsonObject) => void;
  idPrefix: string;
  issues: FormIssues;
}) {
  const root = resolve(schema, { root: schema, refs: new Set() });
  const id = idPrefix.replace(/\s+/g, '_');
  const emit = (next: unknown) => onChange(isObject(next) ? next : {});
  const kind = kindOf(root.schema);
  if (kind === 'object' || kind === 'choice') {
    const Body = kind === 'object' ? ObjectFields : Choice;
    return (
      <div class="tg-form">
        <Body
          r={root}
          value={value}
          onChange={emit}
          id={id}
          label="Arguments"
          required={true}
          path=""
          issues={issues}
        />
      </div>
    );
  }
  // `{type: "object"}` alone is how tools say "no arguments"; declared extra properties get a JSON field.
  const open = root.schema.additionalProperties;
  if (open === undefined || open === false) {
    // Nothing declared, yet arguments may have been proposed: they are shown (and flagged), not hidden.
    if (Object.keys(value).length === 0) return <p class="tg-muted">No fields to fill in.</p>;
    return (
      <div class="tg-form">
        <ObjectFields
          r={root}
          value={value}
          onChange={emit}
          id={id}
          label="Arguments"
          required={true}
          path=""
          issues={issues}
        />
      </div>
    );
  }
  const messages = messagesAt(issues, '', true);
  const errorId = `${id}-issues`;
  return (
    <div class="tg-form tg-field">
      <label for={id}>Arguments (a JSON object)</label>
      <JsonField
        id={id}
        value={value}
        onChange={(next) => {
          issues.touched.add('');
          emit(next);
        }}
        describedBy={messages.length > 0 ? errorId : undefined}
        invalid={messages.length > 0}
        required={false}
        objectOnly
      />
      <FieldIssues id={errorId} messages={messages} />
    </div>
  );
}

/** A field's messages, where its aria-describedby points. */
function FieldIssues({ id, messages }: { id: string; messages: readonly string[] }) {
  if (messages.length === 0) return null;
  return (
    <p id={id} class="tg-error tg-field-issue">
      {messages.map((message) => capitalize(message)).join('; ')}.
    </p>
  );
}

const capitalize = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

interface FieldProps {
  r: Resolved;
  value: unknown;
  onChange: (next: unknown) => void;
  id: string;
  label: string;
  required: boolean;
  /** Where the value sits in the arguments, as issue paths read (see keyPath). */
  path: string;
  issues: FormIssues;
}

function ObjectFields({ r, value, onChange, id, path, issues }: FieldProps) {
  const properties = isObject(r.schema.properties) ? r.schema.properties : {};
  const required = requiredSet(r.schema);
  const current = isObject(value) ? value : {};
  const extras = extraArguments(r.schema, current);
  return (
    <>
      {Object.entries(properties).map(([key, raw]) => {
        const child = resolve(raw, r.ctx);
        return (
          <Field
            key={key}
            r={child}
            label={typeof child.schema.title === 'string' ? child.schema.title : key}
            required={required.has(key)}
            id={`${id}-${idPart(key)}`}
            path={keyPath(path, key)}
            issues={issues}
            value={current[key]}
            onChange={(next) => {
              // Emptied fields are removed rather than sent as "" or null.
              const { [key]: _old, ...rest } = current;
              onChange(next === undefined ? rest : { ...rest, [key]: next });
            }}
          />
        );
      })}
      {extras.length > 0 && (
        <UndeclaredArguments
          extras={extras}
          id={`${id}-undeclared`}
          // Shown as JSON: exact whatever its type, with hidden characters escaped.
          renderValue={(extra, fieldId, label) => (
            <Field
              r={{ schema: ANY, ctx: r.ctx }}
              label={label}
              required={false}
              id={fieldId}
              path={keyPath(path, extra.key)}
              issues={issues}
              value={current[extra.key]}
              onChange={(next) => {
                const { [extra.key]: _old, ...rest } = current;
                onChange(next === undefined ? rest : { ...rest, [extra.key]: next });
              }}
            />
          )}
          onRemove={(key) => {
            const { [key]: _removed, ...rest } = current;
            onChange(rest);
          }}
        />
      )}
    </>
  );
}

function Field(outer: FieldProps) {
  const { r, id, label, required, value, path, issues } = outer;
  // An edit marks the field (and, through its parents' handlers, each enclosing one) as touched.
  const onChange = (next: unknown) => {
    issues.touched.add(path);
    outer.onChange(next);
  };
  const props: FieldProps = { ...outer, onChange };
  const natural = kindOf(r.schema);
  const kind = fits(natural, r.schema, value) ? natural : 'json';
  const composite = kind === 'object' || kind === 'array' || kind === 'choice';
  const messages = messagesAt(issues, path, !composite);
  const invalid = messages.length > 0;
  const errorId = `${id}-issues`;
  const issueText = <FieldIssues id={errorId} messages={messages} />;
  const help =
    typeof r.schema.description === 'string' && r.schema.description !== '' ? r.schema.description : '';
  const helpId =
    [help ? `${id}-help` : undefined, invalid ? errorId : undefined].filter(Boolean).join(' ') || undefined;
  const helpText = help && (
    <p id={`${id}-help`} class="tg-help">
      {help}
    </p>
  );
  const mark = required && <span class="tg-required"> (required)</span>;
  if (composite) {
    const Body = kind === 'object' ? ObjectFields : kind === 'array' ? ArrayItems : Choice;
    return (
      <fieldset
        class={`tg-fieldset tg-${kind}`}
        aria-describedby={helpId}
        aria-invalid={invalid || undefined}
      >
        <legend>
          {label}
          {mark}
        </legend>
        {helpText}
        {issueText}
        <Body {...props} />
      </fieldset>
    );
  }
  if (kind === 'boolean') {
    return (
      <div class="tg-field tg-field-check">
        <input
          id={id}
          type="checkbox"
          checked={value === true}
          aria-describedby={helpId}
          aria-invalid={invalid || undefined}
          onChange={(event) => onChange(event.currentTarget.checked)}
        />
        <label for={id}>
          {label}
          {mark}
        </label>
        {helpText}
        {issueText}
      </div>
    );
  }
  return (
    <div class="tg-field">
      <label for={id}>
        {label}
        {mark}
        {kind === 'json' && <span class="tg-muted"> (JSON)</span>}
      </label>
      {kind === 'enum' ? (
        <EnumSelect {...props} describedBy={helpId} invalid={invalid} />
      ) : kind === 'string' ? (
        <StringInput
          id={id}
          value={value}
          onChange={onChange}
          required={required}
          describedBy={helpId}
          invalid={invalid}
          maxLength={typeof r.schema.maxLength === 'number' ? r.schema.maxLength : undefined}
          format={typeof r.schema.format === 'string' ? r.schema.format : undefined}
        />
      ) : kind === 'number' || kind === 'integer' ? (
        <NumberInput {...props} describedBy={helpId} invalid={invalid} />
      ) : (
        <JsonField
          id={id}
          value={value}
          onChange={onChange}
          describedBy={helpId}
          invalid={invalid}
          required={required}
        />
      )}
      {helpText}
      {issueText}
    </div>
  );
}

type ControlProps = FieldProps & { describedBy: string | undefined; invalid: boolean };

function EnumSelect({ r, value, onChange, id, required, describedBy, invalid }: ControlProps) {
  const options = enumOptions(r.schema) ?? [];
  const index = optionIndex(options, value);
  // Thousands of <option>s would freeze the form: search them instead.
  if (options.length > ENUM_SEARCH_THRESHOLD)
    return (
      <EnumSearch
        id={id}
        options={options}
        chosen={index}
        onChange={onChange}
        required={required}
        describedBy={describedBy}
      />
    );
  return (
    <select
      id={id}
      aria-describedby={describedBy}
      aria-invalid={invalid || undefined}
      aria-required={required || undefined}
      value={index === -1 ? '' : String(index)}
      onChange={(event) => {
        const picked = event.currentTarget.value;
        onChange(picked === '' ? undefined : options[Number(picked)]?.value);
      }}
    >
      {(!required || index === -1) && <option value="">{required ? 'Choose…' : '(none)'}</option>}
      {options.map((option, i) => (
        <option key={JSON.stringify(option.value)} value={String(i)}>
          {option.label}
        </option>
      ))}
    </select>
  );
}

function NumberInput({ r, value, onChange, id, required, describedBy, invalid }: ControlProps) {
  // What was typed: "1.0" or "1e3" must survive a re-render even though they parse to 1 and 1000.
  const draft = useSignal('');
  const parse = (raw: string) => (raw.trim() === '' ? undefined : Number(raw));
  const text = parse(draft.value) === value ? draft.value : typeof value === 'number' ? String(value) : '';
  const { minimum, maximum } = r.schema;
  return (
    <input
      id={id}
      type="number"
      aria-describedby={describedBy}
      aria-invalid={invalid || undefined}
      aria-required={required || undefined}
      step={kindOf(r.schema) === 'integer' ? 1 : 'any'}
      min={typeof minimum === 'number' ? minimum : undefined}
      max={typeof maximum === 'number' ? maximum : undefined}
      value={text}
      onInput={(event) => {
        draft.value = event.currentTarget.value;
        const next = parse(draft.value);
        onChange(next === undefined || Number.isNaN(next) ? undefined : next);
      }}
    />
  );
}

function ArrayItems({ r, value, onChange, id, label, path, issues }: FieldProps) {
  const items: unknown[] = Array.isArray(value) ? value : [];
  const item = resolve(r.schema.items, r.ctx);
  // Stable keys, so a removed item's local state (a JSON draft, a chosen branch) does not slide onto its neighbour.
  const keys = useRef<number[]>([]);
  const counter = useRef(0);
  while (keys.current.length < items.length) keys.current.push(counter.current++);
  if (keys.current.length > items.length) keys.current = keys.current.slice(0, items.length);
  const max = typeof r.schema.maxItems === 'number' ? r.schema.maxItems : Number.POSITIVE_INFINITY;
  return (
    <>
      {items.length === 0 && <p class="tg-muted">No items.</p>}
      <ol class="tg-array">
        {items.map((entry, index) => (
          <li key={keys.current[index]} class="tg-array-item">
            <Field
              r={item}
              value={entry}
              id={`${id}-${index}`}
              path={itemPath(path, index)}
              issues={issues}
              label={`Item ${index + 1}`}
              required={false}
              onChange={(next) => onChange(items.map((old, i) => (i === index ? next : old)))}
            />
            <button
              type="button"
              class="tg-remove"
              aria-label={`Remove item ${index + 1} of ${label}`}
              onClick={() => {
                keys.current = keys.current.filter((_, i) => i !== index);
                onChange(items.filter((_, i) => i !== index));
              }}
            >
              Remove
            </button>
          </li>
        ))}
      </ol>
      <button
        type="button"
        class="tg-add"
        disabled={items.length >= max}
        aria-label={`Add item to ${label}`}
        onClick={() => {
          keys.current = [...keys.current, counter.current++];
          onChange([...items, initialValue(item)]);
        }}
      >
        Add item
      </button>
    </>
  );
}

/** Whether a value plausibly belongs to a branch: its type, its const discriminators, its required keys. */
function matches(schema: Schema, value: unknown): boolean {
  const options = enumOptions(schema);
  if (options) return optionIndex(options, value) !== -1;
  const type = typeOf(schema);
  const typeFits: Record<string, boolean> = {
    string: typeof value === 'string',
    number: typeof value === 'number',
    integer: Number.isInteger(value),
    boolean: typeof value === 'boolean',
    array: Array.isArray(value),
    object: isObject(value),
    null: value === null,
  };
  if (type === undefined || !typeFits[type]) return false;
  if (type !== 'object' || !isObject(value)) return true;
  const properties = isObject(schema.properties) ? schema.properties : {};
  for (const [key, property] of Object.entries(properties)) {
    if (isObject(property) && 'const' in property && !same(property.const, value[key])) return false;
  }
  return [...requiredSet(schema)].every((key) => key in value);
}

function branchLabel(schema: Schema, index: number): string {
  if (typeof schema.title === 'string') return schema.title;
  const properties = isObject(schema.properties) ? Object.values(schema.properties) : [];
  const tag = properties.find((property) => isObject(property) && 'const' in property) as Schema | undefined;
  if (tag) return display(tag.const);
  return typeOf(schema) ?? `Option ${index + 1}`;
}

function Choice({ r, value, onChange, id, label, path, issues }: FieldProps) {
  const branches = (choicesOf(r.schema) ?? []).map((branch) => resolve(branch, r.ctx));
  // The branch the current value belongs to, so proposed arguments open on the right form.
  const guess =
    value === undefined
      ? 0
      : Math.max(
          0,
          branches.findIndex((branch) => matches(branch.schema, value)),
        );
  const picked = useSignal(guess);
  const index = Math.min(picked.value, branches.length - 1);
  const branch = branches[index];
  const selectId = `${id}-variant`;
  const branchId = `${id}-v${index}`;
  return (
    <>
      <label for={selectId}>Which form</label>
      <select
        id={selectId}
        value={String(index)}
        onChange={(event) => {
          const next = Number(event.currentTarget.value);
          picked.value = next;
          const chosen = branches[next];
          onChange(chosen ? initialValue(chosen) : undefined);
        }}
      >
        {branches.map((choice, i) => (
          <option key={i} value={String(i)}>
            {branchLabel(choice.schema, i)}
          </option>
        ))}
      </select>
      {branch &&
        (kindOf(branch.schema) === 'object' ? (
          <ObjectFields
            r={branch}
            value={value}
            onChange={onChange}
            id={branchId}
            label={label}
            required={false}
            path={path}
            issues={issues}
          />
        ) : (
          <Field
            r={branch}
            value={value}
            onChange={onChange}
            id={branchId}
            label={branchLabel(branch.schema, index)}
            required={false}
            path={path}
            issues={issues}
          />
        ))}
    </>
  );
}

/** JSON text with hidden characters written as escapes: visible, and parsing back to the same value. */
const pretty = (value: unknown) =>
  value === undefined ? '' : escapeHiddenInJson(JSON.stringify(value, null, 2) ?? String(value));
const fingerprint = (value: unknown) => (value === undefined ? '' : (JSON.stringify(value) ?? ''));

function JsonField({
  id,
  value,
  onChange,
  describedBy,
  invalid = false,
  required,
  objectOnly = false,
}: {
  id: string;
  value: unknown;
  onChange: (next: unknown) => void;
  describedBy: string | undefined;
  /** The validator found something wrong with the value (the message is in `describedBy`). */
  invalid?: boolean;
  required: boolean;
  objectOnly?: boolean;
}) {
  // The text being typed is kept while it is invalid or still means the current value; a value
  // changed from outside (another view, a reset) replaces it.
  const draft = useSignal<string | undefined>(undefined);
  const emitted = useRef<string | undefined>(undefined);
  const editing = draft.value !== undefined && emitted.current === fingerprint(value);
  const text = editing ? (draft.value ?? '') : pretty(value);
  const problem = editing ? check(text, objectOnly).problem : undefined;
  const errorId = `${id}-error`;
  return (
    <>
      <textarea
        id={id}
        class="tg-mono"
        rows={Math.min(10, text.split('\n').length + 1)}
        spellcheck={false}
        aria-describedby={[describedBy, problem ? errorId : undefined].filter(Boolean).join(' ') || undefined}
        aria-invalid={problem || invalid ? true : undefined}
        aria-required={required || undefined}
        value={text}
        onInput={(event) => {
          const raw = event.currentTarget.value;
          const result = check(raw, objectOnly);
          if (result.problem === undefined) {
            emitted.current = fingerprint(result.value);
            onChange(result.value);
          } else emitted.current = fingerprint(value);
          draft.value = raw;
        }}
      />
      {problem && (
        <p id={errorId} class="tg-error tg-json-problem">
          {problem}
        </p>
      )}
    </>
  );
}

function check(raw: string, objectOnly: boolean): { value?: unknown; problem?: string } {
  if (raw.trim() === '') return { value: undefined };
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    // The person is still typing: say so rather than show the parser's message.
    return { problem: 'Not valid JSON yet.' };
  }
  if (objectOnly && !isObject(value)) return { problem: 'Must be a JSON object.' };
  return { value };
}
