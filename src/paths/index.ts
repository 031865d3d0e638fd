export * from '../../machines/path-policy.js';
export { choosePathOffline, createKeywordChooser } from './offline-chooser.js';
export { choosePathWithModel, createModelChooser, pathChoicePrompt, pathChoiceSchema, type ModelChooserOptions } from './model-chooser.js';
