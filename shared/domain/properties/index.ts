/*
 * properties: get-properties and get-property, and the "unknown property" lookup every method
 * naming a property goes through. The public surface of the noun.
 *   property.schema.ts      the query, the path and a property as sent
 *   property.repository.ts  find (the cached ref), list and get a property
 *   property.service.ts     PropertiesService (requireProperty, the per-runtime cache),
 *                           propertyToWire, unknownProperty
 *   property.objects.ts     properties as the change feed shows them (its reader of property)
 *   property.transfer.ts    properties as `cli export` / `cli import` lines (shared/domain/transfer)
 */
export * from './property.schema.js';
export * from './property.repository.js';
export * from './property.service.js';
export * from './property.objects.js';
export * from './property.transfer.js';
