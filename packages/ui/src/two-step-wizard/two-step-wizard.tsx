import { cva } from 'class-variance-authority';
import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { Button } from '../button';
import { ArrowEndIcon, ArrowStartIcon, CheckIcon } from '../icons';
import { format } from '../i18n';
import { cn } from '../lib/cn';
import { useLabels } from '../provider';
import { checkStep, clampStep, stepState, type StepState, type StepValidator } from './wizard-logic';

export const wizardStepStates = ['complete', 'current', 'upcoming'] as const satisfies readonly StepState[];

export interface WizardStep {
  /** Stable id (used for element ids and data-step). */
  id: string;
  title: ReactNode;
  description?: ReactNode;
  /** The step's form. Every step stays mounted (hidden when not current) so typed values survive Back. */
  content: ReactNode;
  /**
   * Called on Next (and on Finish for the last step). Return false (or a promise of false) to stay
   * on the step; the caller's form shows its own field errors. Throwing also blocks.
   */
  validate?: StepValidator;
}

const wizardLabelKeys = ['back', 'next', 'finish', 'wizardStep', 'wizardFormError'] as const;
export type TwoStepWizardLabels = Partial<Record<(typeof wizardLabelKeys)[number], string>>;

export interface TwoStepWizardProps {
  /** The steps in order (the product uses two: vehicle details -> registration, school details -> address). */
  steps: readonly WizardStep[];
  /** Controlled current step index. */
  step?: number;
  defaultStep?: number;
  onStepChange?: (step: number) => void;
  /** Called after the last step validates. A returned promise keeps the Finish button busy. */
  onSubmit: () => void | Promise<void>;
  /** Busy state driven by the caller (e.g. while a mutation runs). */
  submitting?: boolean;
  /** Accessible name of the wizard region (e.g. 'Add vehicle'). */
  label?: string;
  /**
   * Show the kit's generic 'Please complete all required fields…' alert when a step fails
   * validation (on by default; field-level errors remain the caller's form's job).
   */
  showFormError?: boolean;
  labels?: TwoStepWizardLabels;
  className?: string;
}

export const wizardStepMarkerRecipe = cva(
  'flex size-8 shrink-0 items-center justify-center rounded-full border-2 text-sm font-semibold tabular-nums',
  {
    variants: {
      state: {
        complete: 'border-primary bg-primary text-primary-foreground',
        current: 'border-primary bg-surface text-primary',
        upcoming: 'border-border-strong bg-surface text-foreground-muted',
      } satisfies Record<StepState, string>,
    },
  },
);

/**
 * A stepper with per-step validation. Next validates the current step (sync or async) and only
 * then advances; Back never validates. The last step's primary button is Finish, which validates
 * and calls `onSubmit`. Arrows are the kit's directional icons, so they point the reading way in
 * Arabic. Focus moves to the new step's heading after Back/Next so screen readers follow.
 */
export function TwoStepWizard({
  steps,
  step,
  defaultStep = 0,
  onStepChange,
  onSubmit,
  submitting = false,
  label,
  showFormError = true,
  labels,
  className,
}: TwoStepWizardProps) {
  const l = useLabels(wizardLabelKeys, labels);
  const baseId = useId();
  const total = steps.length;
  const [internal, setInternal] = useState(() => clampStep(defaultStep, total));
  const current = clampStep(step ?? internal, total);
  const [busy, setBusy] = useState(false);
  const [invalid, setInvalid] = useState(false);
  const headingRefs = useRef<(HTMLHeadingElement | null)[]>([]);
  const moved = useRef(false);

  useEffect(() => {
    if (!moved.current) return;
    moved.current = false;
    headingRefs.current[current]?.focus();
  }, [current]);

  const goTo = (next: number) => {
    moved.current = true;
    setInvalid(false);
    if (step === undefined) setInternal(next);
    onStepChange?.(next);
  };

  const isLast = current === total - 1;
  const working = busy || submitting;

  const advance = async () => {
    if (working) return;
    setBusy(true);
    try {
      const result = await checkStep(steps[current]?.validate);
      if (!result.ok) {
        setInvalid(true);
        return;
      }
      setInvalid(false);
      if (isLast) await onSubmit();
      else goTo(current + 1);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section
      data-slot="wizard"
      data-current-step={steps[current]?.id}
      data-invalid={invalid || undefined}
      aria-label={label}
      className={cn('flex flex-col gap-6', className)}
    >
      <ol data-slot="wizard-steps" className="flex flex-wrap items-center gap-x-4 gap-y-2">
        {steps.map((s, index) => {
          const state = stepState(index, current);
          return (
            <li
              key={s.id}
              data-slot="wizard-step"
              data-state={state}
              aria-current={state === 'current' ? 'step' : undefined}
              className="flex min-w-0 items-center gap-3"
            >
              <span data-slot="wizard-step-marker" className={wizardStepMarkerRecipe({ state })}>
                {state === 'complete' ? <CheckIcon size={16} /> : <bdi>{index + 1}</bdi>}
              </span>
              <span className="flex min-w-0 flex-col">
                <span className="text-xs text-foreground-muted">
                  {format(l.wizardStep, { current: index + 1, total })}
                </span>
                <span
                  className={cn(
                    'truncate text-sm font-medium',
                    state === 'upcoming' ? 'text-foreground-muted' : 'text-foreground',
                  )}
                >
                  {s.title}
                </span>
              </span>
              {index < total - 1 ? (
                <span aria-hidden="true" className="hidden h-px w-10 bg-border sm:block" />
              ) : null}
            </li>
          );
        })}
      </ol>

      {steps.map((s, index) => {
        const headingId = `${baseId}-${s.id}-title`;
        return (
          <div
            key={s.id}
            role="group"
            aria-labelledby={headingId}
            data-slot="wizard-panel"
            data-step={s.id}
            hidden={index !== current}
            className="flex flex-col gap-4"
          >
            <div>
              <h2
                id={headingId}
                tabIndex={-1}
                ref={(el) => {
                  headingRefs.current[index] = el;
                }}
                className="text-lg font-semibold text-foreground outline-none"
              >
                {s.title}
              </h2>
              {s.description ? <p className="text-sm text-foreground-muted">{s.description}</p> : null}
            </div>
            {s.content}
          </div>
        );
      })}

      {invalid && showFormError ? (
        <p
          role="alert"
          data-slot="wizard-error"
          className="rounded-md bg-danger-soft px-3 py-2 text-sm text-danger"
        >
          {l.wizardFormError}
        </p>
      ) : null}

      <div
        data-slot="wizard-actions"
        className="flex items-center justify-between gap-3 border-t border-border pt-4"
      >
        {current > 0 ? (
          <Button
            variant="outline"
            data-slot="wizard-back"
            startIcon={<ArrowStartIcon />}
            disabled={working}
            onClick={() => goTo(current - 1)}
          >
            {l.back}
          </Button>
        ) : (
          <span />
        )}
        <Button
          data-slot={isLast ? 'wizard-submit' : 'wizard-next'}
          loading={working}
          endIcon={isLast ? undefined : <ArrowEndIcon />}
          onClick={() => void advance()}
        >
          {isLast ? l.finish : l.next}
        </Button>
      </div>
    </section>
  );
}
