import { Component, type ErrorInfo, type ReactNode } from 'react';
import { ErrorDetails, ErrorFallback } from './error-screens';

export interface ErrorBoundaryProps {
  children?: ReactNode;
  /** 'details' ('Something went wrong' with the stack, the default) or 'simple' ('Sorry.. there was an error'). */
  variant?: 'details' | 'simple';
  /** Hides the stack in the details screen. Default false. */
  hideStack?: boolean;
  /** Custom fallback; receives the error and a reset function. */
  fallback?(error: unknown, reset: () => void): ReactNode;
  /** Clears the error when any of these change (pass the location so navigating away recovers). */
  resetKeys?: readonly unknown[];
  /** Reporting hook, called once per caught error. */
  onError?(error: unknown, info: ErrorInfo): void;
}

interface ErrorBoundaryState {
  error: unknown;
  hasError: boolean;
}

function keysChanged(previous: readonly unknown[] = [], next: readonly unknown[] = []): boolean {
  return previous.length !== next.length || previous.some((value, index) => !Object.is(value, next[index]));
}

/** Catches render errors below it and shows an error screen instead of a blank page (core §2). */
export class ErrorBoundary extends Component<ErrorBoundaryProps, ErrorBoundaryState> {
  override state: ErrorBoundaryState = { error: undefined, hasError: false };

  static getDerivedStateFromError(error: unknown): ErrorBoundaryState {
    return { error, hasError: true };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    this.props.onError?.(error, info);
  }

  override componentDidUpdate(previous: ErrorBoundaryProps): void {
    if (this.state.hasError && keysChanged(previous.resetKeys, this.props.resetKeys)) this.reset();
  }

  reset = (): void => {
    this.setState({ error: undefined, hasError: false });
  };

  override render(): ReactNode {
    if (!this.state.hasError) return this.props.children;
    const { fallback, variant = 'details', hideStack } = this.props;
    if (fallback) return fallback(this.state.error, this.reset);
    if (variant === 'simple') return <ErrorFallback onRetry={this.reset} />;
    return <ErrorDetails error={this.state.error} hideStack={hideStack} onRetry={this.reset} />;
  }
}
