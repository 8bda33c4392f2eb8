/**
 * How Toolgate would register with an authorization server, in the order sign-in uses
 * (auth/client-identity.ts): a client the host pre-registered, then a Client ID Metadata Document
 * when the host serves one and the server supports them, then Dynamic Client Registration. The
 * doctor says what the server offers, which way would be taken, and why none can be.
 */

import type { ClientIdentity } from '../../auth/index.js';
import type { DoctorStep } from './report.js';

/** What an authorization server's metadata offers for registration. */
export interface RegistrationSupport {
  issuer: string;
  /** It has a `registration_endpoint` (RFC 7591). */
  dynamic: boolean;
  /** `client_id_metadata_document_supported: true`. */
  metadataDocument: boolean;
}

type Verdict = Pick<DoctorStep, 'outcome' | 'reason'> & {
  /** The way Toolgate would register, when there is one. */
  chosen?: 'pre-registered' | 'metadata-document' | 'dynamic' | 'app';
};

const sameIssuer = (a: string, b: string) => a.replace(/\/+$/, '') === b.replace(/\/+$/, '');

export function registrationVerdict(
  support: RegistrationSupport,
  identity: ClientIdentity | undefined,
  appSignsIn: boolean,
): Verdict {
  const offers = [
    support.metadataDocument ? 'Client ID Metadata Documents' : undefined,
    support.dynamic ? 'Dynamic Client Registration' : undefined,
  ].filter((way) => way !== undefined);
  const offered = offers.length
    ? `${support.issuer} accepts ${offers.join(' and ')}`
    : `${support.issuer} accepts neither Client ID Metadata Documents nor Dynamic Client Registration`;
  if (appSignsIn)
    return {
      outcome: 'pass',
      chosen: 'app',
      reason: `${offered}; the host app signs in as itself with a client it registered there.`,
    };
  if (!identity)
    return {
      outcome: 'fail',
      reason: `${offered}, but the host app gave Toolgate no sign-in settings for this server (auth.client), so it cannot sign in here.`,
    };
  const preRegistered = identity.preRegistered ?? [];
  const mine = preRegistered.find(
    (entry) => entry.issuer === undefined || sameIssuer(entry.issuer, support.issuer),
  );
  if (mine)
    return {
      outcome: 'pass',
      chosen: 'pre-registered',
      reason: `${offered}; Toolgate uses the client the host pre-registered (${mine.clientId}).`,
    };
  if (identity.metadataDocumentUrl && support.metadataDocument)
    return {
      outcome: 'pass',
      chosen: 'metadata-document',
      reason: `${offered}; Toolgate's client id is its metadata document, ${identity.metadataDocumentUrl}.`,
    };
  if (support.dynamic && identity.dynamicRegistration !== false)
    return {
      outcome: 'pass',
      chosen: 'dynamic',
      reason: `${offered}; Toolgate registers itself there (Dynamic Client Registration)${identity.metadataDocumentUrl ? ', as the server does not take metadata documents' : ''}.`,
    };
  const why = [
    preRegistered.length > 0
      ? `the pre-registered client belongs to ${preRegistered.map((entry) => entry.issuer).join(', ')}`
      : undefined,
    support.metadataDocument && !identity.metadataDocumentUrl
      ? 'the host serves no Client ID Metadata Document'
      : undefined,
    support.dynamic && identity.dynamicRegistration === false
      ? 'the host turned Dynamic Client Registration off'
      : undefined,
  ].filter((reason) => reason !== undefined);
  return {
    outcome: 'fail',
    reason: `${offered}${why.length ? `, and ${why.join(', and ')}` : ''}: Toolgate has no way to register. Ask the server's operator for a client id and give it to the host app as pre-registered${support.metadataDocument ? ', or serve a Client ID Metadata Document' : ''}.`,
  };
}
