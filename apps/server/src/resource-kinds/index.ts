/**
 * What a module needs to define a resource kind (ADR 0014): the `ResourceKind` shape,
 * `defineResourceKind`, and the spec fields kinds share (schedules, durations, selectors, value
 * sources). Below every module, like `platform/`: the module that owns a kind's table defines the
 * kind with these and lists it in its `module.ts`; `modules/resources` stores and serves them all.
 */
export {
  defineResourceKind,
  isSealedValue,
  sealed,
  type JsonObject,
  type JsonValue,
  type ResourceKind,
  type RowColumns,
  type SealedValue,
  type SecretBox,
  type SpecIssue,
} from './resource-kind.js';
export {
  durationField,
  resourceSelectorField,
  scheduleField,
  stringMapField,
  textOrNull,
  valueSourceField,
  type ValueSource,
} from './spec-fields.js';
