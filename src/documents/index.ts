/** The document agent's data: projects, documents, chats and messages in the store's database. */
export * from './schemas.js';
export * from './errors.js';
export { documentRepository, type DocumentRepository } from './repository.js';
export * from './limits.js';
export { actClaims, withActClaim, type ActClaims, type ActClaimTiming, type ActKey } from './act-claims.js';
