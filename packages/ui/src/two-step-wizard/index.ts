export { TwoStepWizard, wizardStepStates, wizardStepMarkerRecipe } from './two-step-wizard';
export type { TwoStepWizardProps, TwoStepWizardLabels, WizardStep } from './two-step-wizard';
export { checkStep, stepState, clampStep } from './wizard-logic';
export type { StepValidator, StepCheck, StepState } from './wizard-logic';
