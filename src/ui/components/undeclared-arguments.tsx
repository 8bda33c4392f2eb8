/**
 * Arguments an object holds that its schema does not declare. A model can propose any property; a
 * form built from the schema alone would show only the declared ones while all of them are sent.
 * They are listed in their own section, flagged, each removable; where the schema forbids them
 * (`additionalProperties: false`) the section says validation will refuse the call.
 */

import type { ComponentChildren } from 'preact';
import type { JsonObject } from '../../protocol/index.js';
import { escapeHidden } from './hidden-characters.js';

export interface ExtraArgument {
  key: string;
  /** Not declared; not declared and forbidden; or named by a `patternProperties` pattern. */
  status: 'undeclared' | 'forbidden' | 'pattern';
}

const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A pattern as the schema means it (Unicode); undefined when the browser cannot compile it. */
function compile(pattern: string): RegExp | undefined {
  try {
    return new RegExp(pattern, 'u');
  } catch {
    // A pattern this browser cannot compile is treated as no pattern (nothing is hidden by it).
    return undefined;
  }
}

/** The keys of `value` that `schema.properties` does not declare, in the value's order. */
export function extraArguments(schema: JsonObject, value: JsonObject): ExtraArgument[] {
  const declared = isObject(schema.properties) ? schema.properties : {};
  const patterns = isObject(schema.patternProperties) ? Object.keys(schema.patternProperties) : [];
  const compiled = patterns.map(compile);
  // A pattern the browser cannot read might have matched: then "forbidden" cannot be claimed.
  const unsure = compiled.some((pattern) => pattern === undefined);
  const closed = schema.additionalProperties === false || schema.unevaluatedProperties === false;
  return Object.keys(value)
    .filter((key) => !Object.hasOwn(declared, key))
    .map((key) => {
      if (compiled.some((pattern) => pattern?.test(key))) return { key, status: 'pattern' };
      return { key, status: closed && !unsure ? 'forbidden' : 'undeclared' };
    });
}

export function UndeclaredArguments({
  extras,
  id,
  renderValue,
  onRemove,
}: {
  extras: ExtraArgument[];
  id: string;
  /** The field for one argument (its value shown and editable), labelled with `label`. */
  renderValue: (extra: ExtraArgument, fieldId: string, label: string) => ComponentChildren;
  onRemove: (key: string) => void;
}) {
  const flagged = extras.filter((extra) => extra.status !== 'pattern');
  const forbidden = extras.some((extra) => extra.status === 'forbidden');
  const noteId = `${id}-note`;
  return (
    <fieldset
      class={`tg-fieldset tg-undeclared${flagged.length > 0 ? ' tg-flagged' : ''}`}
      aria-describedby={noteId}
    >
      <legend>{flagged.length > 0 ? 'Undeclared arguments' : 'Arguments matched by a name pattern'}</legend>
      <p id={noteId} class={flagged.length > 0 ? 'tg-warning' : 'tg-help'}>
        {forbidden
          ? 'The tool’s schema does not declare these and forbids undeclared arguments: validation will refuse this call unless you remove them.'
          : flagged.length > 0
            ? 'The tool’s schema does not declare these. They were proposed and will be sent as shown.'
            : 'The schema allows these by a pattern on their names.'}
      </p>
      {extras.map((extra, index) => {
        const shownKey = escapeHidden(extra.key);
        const fieldId = `${id}-${index}`;
        return (
          <div key={extra.key} class="tg-undeclared-argument">
            {renderValue(
              extra,
              fieldId,
              extra.status === 'forbidden'
                ? `${shownKey} (undeclared, refused by validation)`
                : extra.status === 'undeclared'
                  ? `${shownKey} (undeclared)`
                  : shownKey,
            )}
            <button
              type="button"
              class="tg-remove"
              aria-label={`Remove argument ${shownKey}`}
              onClick={() => onRemove(extra.key)}
            >
              Remove
            </button>
          </div>
        );
      })}
    </fieldset>
  );
}
